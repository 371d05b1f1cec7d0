/* cli: the wearwatch command line. One command table (src/cli/cli.c) and one
 * file per subcommand: scan, show, probe, capture, decode, verify,
 * notify-test; serve, collector and web hand over to the service. */
#ifndef WEARWATCH_CLI_H
#define WEARWATCH_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

/** main() of the wearwatch binary: argv[1] names the subcommand. Returns the
 * process exit status (2 for an unknown command). */
int ww_cli_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
