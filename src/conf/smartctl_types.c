/* The device types smartctl's -d takes, in one place: [drive] smartctl,
 * serve's --smartctl DRIVE=TYPE. Source: `smartctl -h` of smartmontools 7.3
 * (Debian 12), "-d TYPE, --device=TYPE", and smartctl(8) of the same
 * release for the arguments:
 *   ata, scsi[+TYPE], nvme[,NSID], sat[,auto][,N][+TYPE], usbcypress[,X],
 *   usbjmicron[,p][,x][,N], usbprolific, usbsunplus, sntasmedia,
 *   sntjmicron[,NSID], sntrealtek, intelliprop,N[+TYPE],
 *   jmb39x[-q],N[,sLBA][,force][+TYPE], jms56x,N[,sLBA][,force][+TYPE],
 *   marvell, areca,N[/E], 3ware,N, hpt,L/M[/N], megaraid,N, aacraid,H,L,ID,
 *   cciss,N, auto, test.
 * A type smartctl does not take made every read of that drive fail with
 * smartctl's usage text, long after the configuration was accepted. */
#include <stdbool.h>
#include <string.h>

#include "wearwatch/conf.h"

/* a decimal, or 0x and hex digits (NSIDs, usbcypress' SCSI opcode); *s
 * moves past it */
static bool num(const char **s)
{
	const char *p = *s;
	size_t n;

	if (p[0] == '0' && p[1] == 'x') {
		n = strspn(p + 2, "0123456789abcdefABCDEF");
		if (!n || n > 8)
			return false;
		*s = p + 2 + n;
		return true;
	}
	n = strspn(p, "0123456789");
	if (!n || n > 10)
		return false;
	*s = p + n;
	return true;
}

/* `lit` at *s (then *s moves past it) */
static bool eat(const char **s, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*s, lit, n))
		return false;
	*s += n;
	return true;
}

/* ",N" and `more` times SEP N after it */
static bool nums(const char **s, const char *sep, int more)
{
	if (!eat(s, ",") || !num(s))
		return false;
	for (int i = 0; i < more; i++)
		if (!eat(s, sep) || !num(s))
			return false;
	return true;
}

/* the arguments after each type's name; each returns whether a is one */
static bool a_none(const char *a)
{
	return !*a;
}

static bool a_opt_num(const char *a)
{
	return !*a || (eat(&a, ",") && num(&a) && !*a);
}

static bool a_n(const char *a)
{
	return nums(&a, ",", 0) && !*a;
}

/* [,auto][,N]: N the ATA PASS-THROUGH CDB length, 12 or 16 */
static bool a_sat(const char *a)
{
	eat(&a, ",auto");
	if (!eat(&a, ",12"))
		eat(&a, ",16");
	return !*a;
}

/* [,p][,x][,PORT]: PORT 0 or 1 */
static bool a_usbjmicron(const char *a)
{
	eat(&a, ",p");
	eat(&a, ",x");
	if (!eat(&a, ",0"))
		eat(&a, ",1");
	return !*a;
}

static bool a_jmb(const char *a)
{
	if (!nums(&a, ",", 0))
		return false;
	if (*a == ',' && a[1] >= '0' && a[1] <= '9') {
		a++;
		num(&a);
	}
	eat(&a, ",force");
	return !*a;
}

static bool a_aacraid(const char *a)
{
	return nums(&a, ",", 2) && !*a;
}

static bool a_hpt(const char *a)
{
	if (!nums(&a, "/", 1))
		return false;
	if (eat(&a, "/") && !num(&a))
		return false;
	return !*a;
}

static bool a_areca(const char *a)
{
	if (!nums(&a, ",", 0))
		return false;
	if (eat(&a, "/") && !num(&a))
		return false;
	return !*a;
}

static const struct {
	const char *name;
	bool (*args)(const char *a);
	bool plus; /* takes +TYPE after it */
} types[] = {
	{ "ata", a_none, false },
	{ "scsi", a_none, true },
	{ "nvme", a_opt_num, false },
	{ "sat", a_sat, true },
	{ "usbcypress", a_opt_num, false },
	{ "usbjmicron", a_usbjmicron, false },
	{ "usbprolific", a_none, false },
	{ "usbsunplus", a_none, false },
	{ "sntasmedia", a_none, false },
	{ "sntjmicron", a_opt_num, false },
	{ "sntrealtek", a_none, false },
	{ "intelliprop", a_n, true },
	{ "jmb39x-q", a_jmb, true },
	{ "jmb39x", a_jmb, true },
	{ "jms56x", a_jmb, true },
	{ "marvell", a_none, false },
	{ "areca", a_areca, false },
	{ "3ware", a_n, false },
	{ "hpt", a_hpt, false },
	{ "megaraid", a_n, false },
	{ "aacraid", a_aacraid, false },
	{ "cciss", a_n, false },
	{ "auto", a_none, false },
	{ "test", a_none, false },
};

/* one TYPE; `plus_ok`: a +TYPE may follow (not after a second one) */
static bool type_ok(const char *t, bool plus_ok)
{
	const char *plus = strchr(t, '+');
	char base[64];
	size_t n = plus ? (size_t)(plus - t) : strlen(t);

	if (!n || n >= sizeof(base))
		return false;
	memcpy(base, t, n);
	base[n] = 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t k = strlen(types[i].name);

		if (strncmp(base, types[i].name, k) || (base[k] && base[k] != ','))
			continue;
		if (!types[i].args(base + k))
			return false;
		if (!plus)
			return true;
		return types[i].plus && plus_ok && type_ok(plus + 1, false);
	}
	return false;
}

bool ww_conf_smartctl_type_valid(const char *type)
{
	return type && type_ok(type, true);
}
