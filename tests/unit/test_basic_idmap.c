/* The sorted id map (basic.h): ids come back in strcmp order whatever order
 * they went in, pointers stay put across inserts, remove and drop free what
 * they should, and an id that does not fit is refused, not cut. */
#include <errno.h>
#include <stddef.h>

#include "wearwatch/basic.h"
#include "ww_test.h"

struct entry {
	char id[160];
	int value;
	char *owned; /* freed by drop */
};

static int drops;

static void drop_entry(void *elem)
{
	struct entry *e = elem;

	free(e->owned);
	drops++;
}

/* every neighbour pair in strcmp order, and each id found again */
static bool sorted(const ww_idmap_t *m)
{
	for (size_t i = 0; i + 1 < ww_idmap_count(m); i++) {
		const struct entry *a = ww_idmap_at(m, i), *b = ww_idmap_at(m, i + 1);

		if (strcmp(a->id, b->id) >= 0)
			return false;
	}
	for (size_t i = 0; i < ww_idmap_count(m); i++) {
		const struct entry *a = ww_idmap_at(m, i);

		if (ww_idmap_find(m, a->id) != a)
			return false;
	}
	return true;
}

static void test_order(void)
{
	static const char *in[] = { "nvme-b", "ata-z", "scsi-1", "ata-a", "nvme-a" };
	static const char *want[] = { "ata-a", "ata-z", "nvme-a", "nvme-b", "scsi-1" };
	ww_idmap_t m;
	struct entry *first;
	bool created;

	ww_idmap_init(&m, WW_IDMAP_OF(struct entry, id), NULL);
	CHECK_EQ_U64(ww_idmap_count(&m), 0);
	CHECK(ww_idmap_find(&m, "ata-a") == NULL);
	CHECK(ww_idmap_at(&m, 0) == NULL);
	first = ww_idmap_get(&m, in[0], &created);
	CHECK(first && created);
	first->value = 42;
	for (size_t i = 1; i < 5; i++) {
		struct entry *e = ww_idmap_get(&m, in[i], &created);

		CHECK(e && created);
		CHECK(e && e->value == 0 && !e->owned); /* zeroed */
	}
	CHECK_EQ_U64(ww_idmap_count(&m), 5);
	for (size_t i = 0; i < 5; i++)
		CHECK_STR(((struct entry *)ww_idmap_at(&m, i))->id, want[i]);
	/* found again, not inserted twice; the first pointer did not move */
	CHECK(ww_idmap_get(&m, "nvme-b", &created) == first && !created);
	CHECK(ww_idmap_get(&m, "nvme-b", NULL) == first);
	CHECK_EQ_U64(first->value, 42);
	CHECK_EQ_U64(ww_idmap_count(&m), 5);
	CHECK(ww_idmap_find(&m, "nvme") == NULL); /* a prefix is another id */
	CHECK(ww_idmap_find(&m, "nvme-bb") == NULL);
	ww_idmap_free(&m);
	CHECK_EQ_U64(ww_idmap_count(&m), 0);
	/* reusable after free */
	CHECK(ww_idmap_get(&m, "x", NULL) != NULL);
	CHECK_EQ_U64(ww_idmap_count(&m), 1);
	ww_idmap_free(&m);
}

/* many ids in a scrambled order: far past the first table size */
static void test_many(void)
{
	enum {
		N = 5000
	};
	struct entry *keep[N];
	ww_idmap_t m;
	char id[32];
	bool ok = true;

	ww_idmap_init(&m, WW_IDMAP_OF(struct entry, id), NULL);
	for (unsigned i = 0; i < N; i++) {
		unsigned k = (i * 7919u) % N; /* 7919 is prime: a permutation of 0..N-1 */
		struct entry *e;

		snprintf(id, sizeof(id), "drive-%05u", k);
		e = ww_idmap_get(&m, id, NULL);
		if (!e) {
			ok = false;
			break;
		}
		e->value = (int)k;
		keep[k] = e;
	}
	CHECK(ok);
	CHECK_EQ_U64(ww_idmap_count(&m), N);
	CHECK(sorted(&m));
	for (unsigned k = 0; ok && k < N; k++) {
		snprintf(id, sizeof(id), "drive-%05u", k);
		ok = ww_idmap_find(&m, id) == keep[k] && keep[k]->value == (int)k &&
			ww_idmap_at(&m, k) == keep[k];
	}
	CHECK(ok);
	ww_idmap_free(&m);
}

static void test_remove(void)
{
	ww_idmap_t m;
	struct entry *b, *c;

	drops = 0;
	ww_idmap_init(&m, WW_IDMAP_OF(struct entry, id), drop_entry);
	CHECK(ww_idmap_get(&m, "a", NULL) != NULL);
	b = ww_idmap_get(&m, "b", NULL);
	c = ww_idmap_get(&m, "c", NULL);
	CHECK(b && c);
	b->owned = strdup("b's");
	c->owned = strdup("c's");
	CHECK(!ww_idmap_remove(&m, "zz"));
	CHECK_EQ_U64(drops, 0);
	CHECK(ww_idmap_remove(&m, "b"));
	CHECK_EQ_U64(drops, 1);
	CHECK_EQ_U64(ww_idmap_count(&m), 2);
	CHECK(ww_idmap_find(&m, "b") == NULL);
	CHECK(ww_idmap_find(&m, "c") == c); /* not moved */
	CHECK_STR(((struct entry *)ww_idmap_at(&m, 1))->id, "c");
	CHECK(!ww_idmap_remove(&m, "b"));
	/* back again: a new, zeroed element */
	b = ww_idmap_get(&m, "b", NULL);
	CHECK(b && !b->owned);
	CHECK(sorted(&m));
	CHECK(ww_idmap_remove(&m, "a")); /* first */
	CHECK(ww_idmap_remove(&m, "c")); /* last */
	CHECK_EQ_U64(ww_idmap_count(&m), 1);
	CHECK(ww_idmap_at(&m, 0) == b);
	ww_idmap_free(&m);
	CHECK_EQ_U64(drops, 4); /* b, a, c, then b in free */
}

/* the id as a later member, and ids up to the field's size exactly */
struct tail {
	int n;
	char name[8];
};

static void test_long_id(void)
{
	char big[4096];
	ww_idmap_t m;
	struct entry *e;
	struct tail *t;

	ww_idmap_init(&m, WW_IDMAP_OF(struct entry, id), NULL);
	memset(big, 'i', 159);
	big[159] = '\0'; /* 159 + NUL: fits */
	e = ww_idmap_get(&m, big, NULL);
	CHECK(e && strcmp(e->id, big) == 0);
	CHECK(ww_idmap_find(&m, big) == e);
	big[159] = 'j';
	big[160] = '\0'; /* 160 + NUL: refused */
	errno = 0;
	CHECK(ww_idmap_get(&m, big, NULL) == NULL);
	CHECK_EQ_I64(errno, ENAMETOOLONG);
	CHECK(ww_idmap_find(&m, big) == NULL); /* not cut to a 159-char id */
	memset(big, 'k', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(ww_idmap_get(&m, big, NULL) == NULL);
	CHECK_EQ_U64(ww_idmap_count(&m), 1);
	ww_idmap_free(&m);

	ww_idmap_init(&m, WW_IDMAP_OF(struct tail, name), NULL);
	t = ww_idmap_get(&m, "seven77", NULL);
	CHECK(t && t->n == 0 && strcmp(t->name, "seven77") == 0);
	CHECK(ww_idmap_get(&m, "eight888", NULL) == NULL);
	CHECK(ww_idmap_find(&m, "seven77") == t);
	ww_idmap_free(&m);
}

int main(void)
{
	test_order();
	test_many();
	test_remove();
	test_long_id();
	return ww_test_done("test_basic_idmap");
}
