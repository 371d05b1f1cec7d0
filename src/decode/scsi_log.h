/* LOG SENSE parameter walkers, one per page, private to src/decode/: the
 * WW_DEC_SCSI_LOG rows of the registry (registry.c) point at them and
 * ww_decode_scsi_log_page() runs them on a working copy of h->scsi after
 * checking the page header. Each walks the parameters with
 * ww_scsi_log_next() and returns 0 or its -EINVAL (a parameter running past
 * the page end). Counters keep their source ("SCSI log page 0xNN param
 * 0xNNNN"). Specs by clause name (numbers differ between revisions). */
#ifndef WW_DECODE_SCSI_LOG_H
#define WW_DECODE_SCSI_LOG_H

#include "wearwatch/decode.h"

/** 0x00/0x00 Supported Log Pages (one page code per byte) and 0x00/0xFF
 * Supported Log Pages and Subpages ((page, subpage) pairs; an odd length is
 * -EINVAL) (SPC-5) -> supported_pages[], merged without duplicates, at most
 * WW_SCSI_MAX_PAGES. */
int ww_scsi_log_supported(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x02 / 0x03 / 0x05 Write / Read / Verify Error Counter log pages (SBC-4):
 * param 0x0003 total errors corrected, 0x0005 total bytes processed, 0x0006
 * total uncorrected errors -> write_errors / read_errors / verify_errors. */
int ww_scsi_log_write_errors(ww_scsi_log_iter_t *it, ww_scsi_t *s);
int ww_scsi_log_read_errors(ww_scsi_log_iter_t *it, ww_scsi_t *s);
int ww_scsi_log_verify_errors(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x0D Temperature log page (SPC-5): param 0x0000 byte 5 current, 0x0001
 * byte 5 reference temperature, Celsius; 0xFF = not available. */
int ww_scsi_log_temperature(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x0D/0x01 Environmental Reporting log page (SPC-5): param 0x0000 byte 5,
 * signed Celsius, 0x80 = not available -> env_temperature_celsius. */
int ww_scsi_log_environment(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x0E Start-Stop Cycle Counter log page (SPC-5): param 0x0001 date of
 * manufacture YYYYWW in ASCII (kept only when all digits), 0x0003 specified
 * cycle count over device lifetime, 0x0004 accumulated start-stop cycles,
 * 0x0005 specified load-unload count over device lifetime, 0x0006
 * accumulated load-unload cycles. */
int ww_scsi_log_start_stop(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x11 Solid State Media log page (SBC-4): param 0x0001 byte 7 percentage
 * used endurance indicator. */
int ww_scsi_log_ssd_media(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/* Non-Medium Error log page 0x06 (SPC-5): param 0x0000, the count of
 * recoverable and unrecoverable errors other than medium errors (a
 * counter of any length, saturating at 64 bits) -> non_medium_errors. */
int ww_scsi_log_non_medium(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x15 Background Scan Results log page (SBC-4): param 0x0000 bytes 4-7
 * accumulated power on minutes. */
int ww_scsi_log_background_scan(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x18 Protocol Specific Port log page for SAS (SPL-4): one parameter per
 * target port (code = relative target port identifier); byte 4 bits 3-0
 * PROTOCOL IDENTIFIER (6h = SAS; other protocols' ports are skipped), byte 7
 * NUMBER OF PHYS, then SAS phy log descriptors from byte 8, each 4 + byte 3
 * bytes long (48 when byte 3 < 44, as SAS-1.1 devices send 0; phy event
 * descriptors follow byte 51 and are not read). Per descriptor: byte 1 phy
 * identifier, 8-15 SAS address, 32-35 invalid dword count, 36-39 running
 * disparity error count, 40-43 loss of dword synchronization, 44-47 phy
 * reset problem, byte 5 bits 3-0 negotiated logical link rate -> sas_phys[]
 * (replaced, not merged), sas_phys_source. A
 * descriptor running past its parameter is -EINVAL. */
int ww_scsi_log_sas_port(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x10 Self-Test Results log page (SPC-5): parameters 0x0001 (the most
 * recent) to 0x0014, 16 bytes each: byte 4 bits 7-5 self-test code, 3-0
 * SELF-TEST RESULTS (0 no error, 1-2 aborted, 3-7 failed, Fh in progress),
 * byte 5 self-test number, bytes 6-7 accumulated power on hours, 8-15
 * address of first failure (all FFh: none). An unused parameter (code,
 * result, number and hours all 0) is not an entry. -> self_test (entries,
 * failed = results 3-7, the newest test, the newest failure's address). */
int ww_scsi_log_self_test(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x1A Power Condition Transitions log page (SPC-5): accumulated
 * transitions to active (0x0001), idle_a (0x0002), idle_b (0x0003), idle_c
 * (0x0004), standby_z (0x0008), standby_y (0x0009) -> power_transitions[]. */
int ww_scsi_log_power_conditions(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x19 General Statistics and Performance log page (SPC-5), param 0x0001
 * (General Access Statistics and Performance): bytes 20-27 number of logical
 * blocks received (written), 28-35 transmitted (read). */
int ww_scsi_log_general_stats(ww_scsi_log_iter_t *it, ww_scsi_t *s);

/** 0x2F Informational Exceptions log page (SPC-5): param 0x0000 byte 4 ASC,
 * byte 5 ASCQ, byte 6 most recent temperature (0xFF = none). */
int ww_scsi_log_ie(ww_scsi_log_iter_t *it, ww_scsi_t *s);

#endif
