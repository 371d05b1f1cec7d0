/* Subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "daemon/cli.h"

int ww_cli_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: wearwatch scan | show DEVICE [--json] | serve [--listen HOST:PORT]\n");
		return argc < 2 ? 2 : 0;
	}
	fprintf(stderr, "wearwatch: unknown command '%s'\n", argv[1]);
	return 2;
}
