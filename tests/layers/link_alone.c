/* Linked with one wearwatch library whole (every object file of it) and only
 * the libraries CMakeLists.txt declares for it: the link fails when any code
 * of that library calls something it has not declared. Nothing to run. */
int main(void)
{
	return 0;
}
