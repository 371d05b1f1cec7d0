/* wearwatch entry point: dispatches subcommands (see src/daemon/cli.c). */
#include "wearwatch/cli.h"

int main(int argc, char **argv)
{
	return ww_cli_main(argc, argv);
}
