/* The verdict's thresholds per drive, as data (see model.h). */
#include <string.h>

#include "wearwatch/model.h"

bool ww_drive_name_matches(const char *name, const char *id, const char *block)
{
	if (!name)
		return false;
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	return (id && *id && !strcmp(name, id)) || (block && *block && !strcmp(name, block));
}

const ww_health_cfg_t *ww_thresholds_for(const ww_thresholds_t *t, const char *id,
					 const char *block)
{
	if (!t)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (ww_drive_name_matches(t->rules[i].name, id, block))
			return t->rules[i].cfg;
	return t->dflt;
}
