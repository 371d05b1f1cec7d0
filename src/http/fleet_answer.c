/* Prometheus' answer to one instant query, checked and cut down to what the
 * fleet page reads (see fleet_answer.h for the shape and the limits). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "http/fleet_answer.h"

/* An upper bound of the JSON values in body (keys included): outside
 * strings, every value but the first follows a '[', ',' or ':'. Counted
 * before json-c builds anything, so a flood of tiny values costs a scan. */
static size_t count_values(const char *p, size_t len)
{
	size_t n = 1;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		if (in_str) {
			if (p[i] == '\\')
				i++;
			else if (p[i] == '"')
				in_str = false;
		} else if (p[i] == '"') {
			in_str = true;
		} else if (p[i] == '[' || p[i] == ',' || p[i] == ':') {
			n++;
		}
	}
	return n;
}

/* Prometheus writes a sample value with strconv.FormatFloat(v, 'f', -1, 64):
 * a decimal, "NaN", "+Inf" or "-Inf"; other servers of the same API may add
 * an exponent. Anything else is not a sample value. */
static bool sample_text(const char *s)
{
	bool digits = false;

	if (!strcmp(s, "NaN") || !strcmp(s, "+Inf") || !strcmp(s, "-Inf"))
		return true;
	if (*s == '-' || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits = true;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits = true;
	if (digits && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return digits && !*s;
}

/* one series of the result: a new {"metric", "value"} object, or NULL with
 * err set */
static json_object *check_series(json_object *s, size_t i, char *err, size_t errlen)
{
	json_object *m, *v, *t, *x, *out;

	if (!json_object_is_type(s, json_type_object)) {
		snprintf(err, errlen, "data.result[%zu] is not an object", i);
		return NULL;
	}
	if (!json_object_object_get_ex(s, "metric", &m) ||
	    !json_object_is_type(m, json_type_object)) {
		snprintf(err, errlen, "data.result[%zu].metric is not an object", i);
		return NULL;
	}
	json_object_object_foreach(m, name, label)
	{
		(void)name;
		if (!json_object_is_type(label, json_type_string)) {
			snprintf(err, errlen,
				 "data.result[%zu].metric: a label value is not a string", i);
			return NULL;
		}
	}
	if (!json_object_object_get_ex(s, "value", &v) ||
	    !json_object_is_type(v, json_type_array) || json_object_array_length(v) != 2) {
		snprintf(err, errlen, "data.result[%zu].value is not [time, \"value\"]", i);
		return NULL;
	}
	t = json_object_array_get_idx(v, 0);
	x = json_object_array_get_idx(v, 1);
	if (!json_object_is_type(t, json_type_int) && !json_object_is_type(t, json_type_double)) {
		snprintf(err, errlen, "data.result[%zu].value[0] is not a time", i);
		return NULL;
	}
	if (!json_object_is_type(x, json_type_string) || !sample_text(json_object_get_string(x))) {
		snprintf(err, errlen, "data.result[%zu].value[1] is not a number", i);
		return NULL;
	}
	out = json_object_new_object();
	json_object_object_add(out, "metric", json_object_get(m));
	json_object_object_add(out, "value", json_object_get(v));
	return out;
}

/* the string member `key` of o, or NULL when absent or not a string */
static const char *member_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* the checked data.result of a parsed answer as a new array, or NULL with
 * err set */
static json_object *check_answer(json_object *o, long code, char *err, size_t errlen)
{
	const char *status, *type, *what;
	json_object *data, *res, *out;
	size_t n;

	status = json_object_is_type(o, json_type_object) ? member_str(o, "status") : NULL;
	if (status && !strcmp(status, "error") && (what = member_str(o, "error"))) {
		type = member_str(o, "errorType");
		snprintf(err, errlen, "HTTP %ld: %s%s%.300s", code, type ? type : "",
			 type ? ": " : "", what);
		return NULL;
	}
	if (!status || strcmp(status, "success")) {
		snprintf(err, errlen, "HTTP %ld, not a Prometheus API answer (status is not %s)",
			 code, "\"success\"");
		return NULL;
	}
	if (!json_object_object_get_ex(o, "data", &data) ||
	    !json_object_is_type(data, json_type_object)) {
		snprintf(err, errlen, "HTTP %ld, unexpected answer: data is not an object", code);
		return NULL;
	}
	type = member_str(data, "resultType");
	if (!type || strcmp(type, "vector")) {
		snprintf(err, errlen, "HTTP %ld, unexpected answer: data.resultType is not %s",
			 code, "\"vector\"");
		return NULL;
	}
	if (!json_object_object_get_ex(data, "result", &res) ||
	    !json_object_is_type(res, json_type_array)) {
		snprintf(err, errlen, "HTTP %ld, unexpected answer: data.result is not an array",
			 code);
		return NULL;
	}
	n = json_object_array_length(res);
	out = json_object_new_array_ext((int)n);
	for (size_t i = 0; i < n; i++) {
		char why[160];
		json_object *s = check_series(json_object_array_get_idx(res, i), i, why,
					      sizeof(why));

		if (!s) {
			snprintf(err, errlen, "HTTP %ld, unexpected answer: %s", code, why);
			json_object_put(out);
			return NULL;
		}
		json_object_array_add(out, s);
	}
	return out;
}

/* the JSON of body within the limits in *out (NULL for a JSON null): 0, or
 * the error with err set */
static int parse_json(const char *body, size_t len, long http_code, json_object **out, char *err,
		      size_t errlen)
{
	json_tokener *tok;
	json_object *o;
	size_t at;
	bool done;

	if (len > WW_FLEET_ANSWER_MAX) {
		snprintf(err, errlen, "answer over %u MiB (the limit per query)",
			 WW_FLEET_ANSWER_MAX >> 20);
		return -E2BIG;
	}
	if (count_values(body, len) > WW_FLEET_ANSWER_VALUES) {
		snprintf(err, errlen, "answer of more than %u JSON values (the limit per query)",
			 WW_FLEET_ANSWER_VALUES);
		return -E2BIG;
	}
	if (!(tok = json_tokener_new())) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* JSON text is UTF-8 (RFC 8259 8.1): bytes that are not would pass to
	 * the page as they came, and a strict parser there rejects the whole
	 * answer */
	json_tokener_set_flags(tok, JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, body, (int)len);
	at = json_tokener_get_parse_end(tok);
	/* a literal at the very end waits for what follows: the end of input
	 * is a NUL byte to json-c */
	if (!o && json_tokener_get_error(tok) == json_tokener_continue) {
		o = json_tokener_parse_ex(tok, "", 1);
		at = len;
	}
	/* a JSON null is NULL too; a value cut short is not success */
	done = json_tokener_get_error(tok) == json_tokener_success;
	json_tokener_free(tok);
	while (done && at < len && body[at] && strchr(" \t\r\n", body[at]))
		at++;
	if (!done || at < len) {
		json_object_put(o);
		snprintf(err, errlen, "HTTP %ld, not a Prometheus API answer (not JSON in UTF-8)",
			 http_code);
		return -EINVAL;
	}
	*out = o;
	return 0;
}

int ww_fleet_answer_parse(const char *body, size_t len, long http_code, char **result, char *err,
			  size_t errlen)
{
	json_object *o = NULL, *res;
	int rc;

	*result = NULL;
	if ((rc = parse_json(body, len, http_code, &o, err, errlen)))
		return rc;
	res = check_answer(o, http_code, err, errlen);
	json_object_put(o);
	if (!res)
		return -EINVAL;
	*result = strdup(json_object_to_json_string_ext(res, JSON_C_TO_STRING_PLAIN));
	json_object_put(res);
	if (*result)
		return 0;
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ww_fleet_names_free(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int ww_fleet_labels_parse(const char *body, size_t len, long http_code, char ***names, size_t *n,
			  char *err, size_t errlen)
{
	json_object *o = NULL, *data;
	const char *status, *what, *type;
	size_t k = 0, m;
	char **v;
	int rc;

	*names = NULL;
	*n = 0;
	if ((rc = parse_json(body, len, http_code, &o, err, errlen)))
		return rc;
	status = json_object_is_type(o, json_type_object) ? member_str(o, "status") : NULL;
	if (status && !strcmp(status, "error") && (what = member_str(o, "error"))) {
		type = member_str(o, "errorType");
		snprintf(err, errlen, "HTTP %ld: %s%s%.300s", http_code, type ? type : "",
			 type ? ": " : "", what);
		json_object_put(o);
		return -EINVAL;
	}
	if (!status || strcmp(status, "success") || !json_object_object_get_ex(o, "data", &data) ||
	    !json_object_is_type(data, json_type_array)) {
		snprintf(err, errlen, "HTTP %ld, not a Prometheus label values answer (%s)",
			 http_code,
			 status && !strcmp(status, "success") ? "data is not an array"
							      : "status is not \"success\"");
		json_object_put(o);
		return -EINVAL;
	}
	m = json_object_array_length(data);
	if (!(v = calloc(m ? m : 1, sizeof(*v)))) {
		json_object_put(o);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < m; i++) {
		json_object *x = json_object_array_get_idx(data, i);

		if (!json_object_is_type(x, json_type_string)) {
			snprintf(err, errlen,
				 "HTTP %ld, unexpected answer: data[%zu] is not a string",
				 http_code, i);
			rc = -EINVAL;
			break;
		}
		if (!(v[k++] = strdup(json_object_get_string(x)))) {
			snprintf(err, errlen, "out of memory");
			rc = -ENOMEM;
			break;
		}
	}
	json_object_put(o);
	if (rc) {
		ww_fleet_names_free(v, k);
		return rc;
	}
	/* sorted and without repeats, whatever the server did */
	qsort(v, k, sizeof(*v), cmp_str);
	m = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && !strcmp(v[m - 1], v[i])) {
			free(v[i]);
			continue;
		}
		v[m++] = v[i];
	}
	*names = v;
	*n = m;
	return 0;
}
