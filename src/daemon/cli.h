/* Subcommand dispatch: scan, show, serve (and later probe, decode, capture). */
#ifndef WW_DAEMON_CLI_H
#define WW_DAEMON_CLI_H

/** main() of the wearwatch binary. Returns the process exit code. */
int ww_cli_main(int argc, char **argv);

/** `wearwatch serve [--listen HOST:PORT] ...`: runs until SIGTERM/SIGINT.
 * argv[0] is "serve". Returns the process exit code. */
int ww_serve_main(int argc, char **argv);

#endif
