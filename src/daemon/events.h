/* Drive events from consecutive snapshots: health change, critical warning,
 * standby, drive missing. Logged with their MESSAGE_ID (log.h); a health
 * change also runs the configured notification program (like smartd -M exec)
 * with the event in environment variables:
 *
 *   WEARWATCH_EVENT        health_change | test
 *   WEARWATCH_DRIVE        stable drive id
 *   WEARWATCH_DEVICE       /dev node
 *   WEARWATCH_MODEL, WEARWATCH_SERIAL
 *   WEARWATCH_OLD_STATE, WEARWATCH_NEW_STATE   unknown | ok | warning | failed
 *   WEARWATCH_REASONS      "; "-separated reasons for the new state
 *   WEARWATCH_MESSAGE      one-line human summary
 *   WEARWATCH_MESSAGE_ID   the journal MESSAGE_ID of the event
 *
 * Collection failures are logged where they happen (poller.c through
 * ww_log_drive_failure, tagged WW_EV_COLLECT_FAILURE). */
#ifndef WW_DAEMON_EVENTS_H
#define WW_DAEMON_EVENTS_H

#include <stddef.h>
#include <sys/types.h>

#include "wearwatch/store.h"

typedef enum ww_health_state {
	WW_STATE_UNKNOWN, /* never read */
	WW_STATE_OK,
	WW_STATE_WARNING, /* spare below threshold, percentage used >= 100 */
	WW_STATE_FAILED,  /* SMART FAILED, NVMe critical warning bits set */
} ww_health_state_t;

const char *ww_health_state_name(ww_health_state_t s);

/** Pure: the state of one drive and its reasons ("; "-joined, "" for ok). */
ww_health_state_t ww_health_state_of(const ww_drive_state_t *st, char *reasons, size_t len);

typedef struct ww_event_env {
	const char *event, *drive, *device, *model, *serial, *old_state, *new_state,
		*reasons, *message, *message_id;
} ww_event_env_t;

/** Start `prog` with the event in its environment (stdin /dev/null). Returns
 * the pid or -errno. The caller reaps it (ww_events_reap or waitpid). */
pid_t ww_events_exec(const char *prog, const ww_event_env_t *ev);

/** Compare two snapshots (prev may be NULL: first look, no events) and log /
 * notify. notify_exec may be "" or NULL. Returns the number of events. */
int ww_events_diff(const ww_snapshot_t *prev, const ww_snapshot_t *cur,
		   const char *notify_exec);

/** Reap finished notification programs; kill those running longer than
 * timeout_s. Call from the main loop. */
void ww_events_reap(unsigned timeout_s);

/** How a notification program ended, from its waitpid() status: "exit 5",
 * "killed by signal 9 (Killed)", or "killed after the N s timeout" when
 * timed_out (it was SIGKILLed for running timeout_s or longer). */
void ww_events_status_text(int status, bool timed_out, unsigned timeout_s, char *buf,
			   size_t len);

/** Wait for the notification program pid (started by ww_events_exec), killing
 * it after timeout_s seconds (0 = no limit); the same reaping and timeout as
 * ww_events_reap. desc gets ww_events_status_text's text. Returns 0 when it
 * exited 0, 1 otherwise, -ECHILD when pid is not one of ours. */
int ww_events_wait(pid_t pid, unsigned timeout_s, char *desc, size_t len);

/** `wearwatch notify-test [--config FILE] [--notify-exec PROG]`: run the
 * program once with WEARWATCH_EVENT=test and wait; exit status 0 when it
 * exited 0. */
int ww_notify_test_main(int argc, char **argv);

#endif
