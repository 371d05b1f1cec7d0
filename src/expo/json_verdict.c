/* JSON of a health verdict (docs/api.md "verdict"): the same result
 * /metrics, /table, `show`, `decode`, the journal and notifications print. */
#include <json-c/json.h>

#include "wearwatch/expo.h"

void *ww_json_verdict_object(const ww_verdict_t *v)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array(), *s;

	json_object_object_add(o, "status", json_object_new_string(ww_status_name(v->status)));
	json_object_object_add(o, "rank", json_object_new_int(ww_status_rank(v->status)));
	for (size_t i = 0; i < v->n; i++) {
		const ww_vreason_t *r = &v->r[i];
		json_object *x = json_object_new_object();

		json_object_object_add(x, "code", json_object_new_string(ww_reason_name(r->code)));
		json_object_object_add(x, "severity",
				       json_object_new_string(ww_status_name(r->severity)));
		json_object_object_add(x, "text", json_object_new_string(r->text));
		json_object_object_add(x, "source", json_object_new_string(r->source));
		if (r->item)
			json_object_object_add(x, "attribute", json_object_new_int(r->item));
		/* the sentence's numbers as data: value now, before a rise, the
		 * level or limit reached */
		if (r->has & WW_VN_VALUE)
			json_object_object_add(x, "value", json_object_new_int64(r->value));
		if (r->has & WW_VN_PREVIOUS)
			json_object_object_add(x, "previous", json_object_new_int64(r->previous));
		if (r->has & WW_VN_LIMIT)
			json_object_object_add(x, "limit", json_object_new_int64(r->limit));
		if (r->has & WW_VN_BASELINE)
			json_object_object_add(x, "baseline", json_object_new_int64(r->baseline));
		if (r->has && r->unit && *r->unit)
			json_object_object_add(x, "unit", json_object_new_string(r->unit));
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "reasons", a);
	s = json_object_new_array();
	for (int k = 0; k < WW_R_MAX; k++)
		if ((v->silenced >> k) & 1)
			json_object_array_add(s, json_object_new_string(ww_reason_name(k)));
	json_object_object_add(o, "silenced", s);
	if (v->n_dropped)
		json_object_object_add(o, "reasons_not_listed", json_object_new_int64((int64_t)v->n_dropped));
	return o;
}
