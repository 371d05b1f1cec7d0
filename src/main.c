/* wearwatch entry point: the command table of src/cli/. */
#include "wearwatch/cli.h"

int main(int argc, char **argv)
{
	return ww_cli_main(argc, argv);
}
