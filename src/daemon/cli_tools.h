/* `wearwatch capture`, `decode`, `verify` (src/daemon/cli_tools.c,
 * cli_verify.c). argv[1] is the subcommand; each returns the exit code. */
#ifndef WW_DAEMON_CLI_TOOLS_H
#define WW_DAEMON_CLI_TOOLS_H

int ww_cli_capture(int argc, char **argv);
int ww_cli_decode(int argc, char **argv);
int ww_cli_verify(int argc, char **argv);

#endif
