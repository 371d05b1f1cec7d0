/* Transport: sends one command to a device and returns the bytes that arrived
 * plus a classified status. No decoding, no logging above debug.
 *
 * A ww_xport is a small vtable so that live devices (SG_IO through libsgutils2,
 * NVMe admin ioctls through libnvme) and recorded ones (replay) share the same
 * read path. Every operation is a read: nothing here can send a write, LOG
 * SELECT, MODE SELECT or SMART ENABLE; the SAT layer only builds the ATA
 * commands listed in sat.h.
 */
#ifndef WEARWATCH_TRANSPORT_H
#define WEARWATCH_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome class of one command (after ioctl, SCSI status, host/driver status
 * and sense have all been looked at). */
typedef enum ww_cmd_result {
	WW_CMD_OK = 0,
	WW_CMD_UNSUPPORTED,   /* INVALID OPCODE / INVALID FIELD IN CDB / NVMe Invalid Log Page / ENOTTY */
	WW_CMD_RECOVERED,     /* data good, sense carried (e.g. SAT ATA return descriptor) */
	WW_CMD_DEVICE_ERROR,  /* CHECK CONDITION / NVMe status != 0 not meaning "unsupported" */
	WW_CMD_TRANSPORT_ERROR, /* host/driver status, aborted */
	WW_CMD_TIMEOUT,
	WW_CMD_OS_ERROR,      /* open/ioctl failed: see os_errno */
	WW_CMD_RESULT_MAX
} ww_cmd_result_t;

/** Everything known about how one command ended. */
typedef struct ww_cmd_status {
	ww_cmd_result_t result;
	int os_errno;           /* positive errno when result == WW_CMD_OS_ERROR */
	uint8_t scsi_status;    /* SAM status byte */
	uint8_t sense[64];
	size_t sense_len;
	uint8_t sense_key, asc, ascq;
	uint16_t nvme_status;   /* NVMe completion status field (SCT<<8|SC) */
	uint32_t nvme_result;   /* completion dword 0 */
	size_t data_len;        /* bytes that actually arrived (request - residual) */
	uint64_t duration_ns;
} ww_cmd_status_t;

typedef struct ww_xport ww_xport_t;

/** Operations a transport offers. Each returns 0 when the command was issued
 * (look at st->result for its outcome) or a negative errno when it could not
 * be issued at all. buf receives at most len bytes; st->data_len says how many
 * are valid. */
typedef struct ww_xport_ops {
	/** SCSI command with data-in (or none when len == 0), through SG_IO. */
	int (*scsi_in)(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len,
		       uint8_t *buf, size_t len, int timeout_s,
		       ww_cmd_status_t *st);
	/** NVMe Identify (CNS, NSID) into a 4096-byte buffer. */
	int (*nvme_identify)(ww_xport_t *x, uint8_t cns, uint32_t nsid,
			     uint8_t *buf, size_t len, ww_cmd_status_t *st);
	/** NVMe Get Log Page (LID, NSID, LSP=0, RAE=1) of len bytes. */
	int (*nvme_get_log)(ww_xport_t *x, uint8_t lid, uint32_t nsid,
			    uint8_t *buf, size_t len, ww_cmd_status_t *st);
	void (*close)(ww_xport_t *x);
	/** NVMe Get Log Page with a Log Specific Identifier (CDW11 bits 31:16),
	 * e.g. the Endurance Group Information log 09h for ENDGID lsi. NULL on
	 * transports that cannot send it (the reader records "unsupported"). */
	int (*nvme_get_log_lsi)(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint16_t lsi,
				uint8_t *buf, size_t len, ww_cmd_status_t *st);
} ww_xport_ops_t;

struct ww_xport {
	const ww_xport_ops_t *ops;
	int fd;                /* live transports; -1 otherwise */
	char path[256];
	void *priv;            /* backend data (replay, capture) */
};

/** Open a live SG_IO transport on an sd/sg/bsg node, read-only (O_RDONLY |
 * O_NONBLOCK; SG_IO needs no write access). Returns 0 or -errno (-EPERM on this
 * machine's /dev/vda, -ENOENT, -EACCES). */
int ww_xport_open_sg(const char *path, ww_xport_t *out);

/** Open a live NVMe transport on a controller (/dev/nvme0) or namespace node,
 * read-only. Returns 0 or -errno. */
int ww_xport_open_nvme(const char *path, ww_xport_t *out);

/** Close and release. Safe on a zeroed struct. */
void ww_xport_close(ww_xport_t *x);

/** Human name of a command result ("ok", "unsupported", ...). */
const char *ww_cmd_result_name(ww_cmd_result_t r);

#ifdef __cplusplus
}
#endif
#endif
