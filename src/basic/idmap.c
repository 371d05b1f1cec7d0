/* Sorted map from drive id to one element (see basic.h). A table of
 * pointers, not of elements, so what a caller holds does not move when
 * another id is inserted: history keeps pointers to its drives in pending
 * rows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/basic.h"

void ww_idmap_init(ww_idmap_t *m, size_t elem_size, size_t id_off, size_t id_size,
		   void (*drop)(void *elem))
{
	memset(m, 0, sizeof(*m));
	m->elem_size = elem_size;
	m->id_off = id_off;
	m->id_size = id_size;
	m->drop = drop;
}

static const char *id_of(const ww_idmap_t *m, const void *elem)
{
	return (const char *)elem + m->id_off;
}

/* index of id, or where it would go */
static size_t slot(const ww_idmap_t *m, const char *id, bool *found)
{
	size_t lo = 0, hi = m->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(id_of(m, m->v[mid]), id);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void *ww_idmap_find(const ww_idmap_t *m, const char *id)
{
	bool found;
	size_t i = slot(m, id, &found);

	return found ? m->v[i] : NULL;
}

void *ww_idmap_get(ww_idmap_t *m, const char *id, bool *created)
{
	bool found;
	size_t i = slot(m, id, &found), len = strlen(id);
	void *e;

	if (created)
		*created = false;
	if (found)
		return m->v[i];
	if (len >= m->id_size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		void **nv = cap > SIZE_MAX / sizeof(*nv) ? NULL : realloc(m->v, cap * sizeof(*nv));

		if (!nv) {
			errno = ENOMEM;
			return NULL;
		}
		m->v = nv;
		m->cap = cap;
	}
	e = calloc(1, m->elem_size);
	if (!e) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy((char *)e + m->id_off, id, len + 1);
	memmove(&m->v[i + 1], &m->v[i], (m->n - i) * sizeof(*m->v));
	m->v[i] = e;
	m->n++;
	if (created)
		*created = true;
	return e;
}

bool ww_idmap_remove(ww_idmap_t *m, const char *id)
{
	bool found;
	size_t i = slot(m, id, &found);

	if (!found)
		return false;
	if (m->drop)
		m->drop(m->v[i]);
	free(m->v[i]);
	memmove(&m->v[i], &m->v[i + 1], (m->n - i - 1) * sizeof(*m->v));
	m->n--;
	return true;
}

size_t ww_idmap_count(const ww_idmap_t *m)
{
	return m->n;
}

void *ww_idmap_at(const ww_idmap_t *m, size_t i)
{
	return i < m->n ? m->v[i] : NULL;
}

void ww_idmap_free(ww_idmap_t *m)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->drop)
			m->drop(m->v[i]);
		free(m->v[i]);
	}
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}
