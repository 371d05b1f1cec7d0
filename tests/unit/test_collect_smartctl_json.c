/* smartctl JSON (src/collect/smartctl_json*.c) with values no drive reports:
 * each input is the smallest document that showed the fault (UBSan signed
 * overflow, silent wrap-around), kept as a fuzz seed in tests/fuzz/regress/. */
#include "wearwatch/collect.h"
#include "ww_test.h"

static ww_health_t h;

static int parse(const char *json)
{
	memset(&h, 0, sizeof(h));
	return ww_smartctl_parse(json, strlen(json), &h, NULL);
}

#define NVME "{\"device\":{\"protocol\":\"NVMe\",\"type\":\"nvme\"},\"model_name\":\"X\"," \
	     "\"nvme_smart_health_information_log\":"
#define ATA "{\"device\":{\"protocol\":\"ATA\",\"type\":\"sat\"},\"model_name\":\"X\","

int main(void)
{
	/* INT64_MAX Celsius: "t + 273" overflowed (UBSan); no drive reports
	 * it (NVMe: 16-bit Kelvin), so it is not a reading */
	CHECK_EQ_I64(parse(NVME "{\"temperature\":9223372036854775807}}"), 0);
	CHECK(!WW_HAS(h.temperature_celsius));
	CHECK_EQ_U64(h.nvme_smart.composite_temperature_kelvin, 0);
	CHECK_EQ_I64(parse(NVME "{\"temperature\":-9223372036854775808}}"), 0);
	CHECK(!WW_HAS(h.temperature_celsius));
	/* the extremes a 16-bit Kelvin field gives are kept */
	CHECK_EQ_I64(parse(NVME "{\"temperature\":65262}}"), 0);
	CHECK_EQ_I64(h.temperature_celsius.value, 65262);
	CHECK_EQ_U64(h.nvme_smart.composite_temperature_kelvin, 65535);
	CHECK_EQ_I64(parse(ATA "\"temperature\":{\"current\":9223372036854775807}}"), 0);
	CHECK(!WW_HAS(h.temperature_celsius));
	/* the per-sensor list the same way: INT64_MAX (json-c's clamp of a
	 * longer number) and -274 are no reading, 0 = "not implemented";
	 * the sensor beside it is kept */
	CHECK_EQ_I64(parse(NVME "{\"temperature_sensors\":[22,9223372036854775807,-274,65262]}}"),
		     0);
	CHECK_EQ_U64(h.nvme_smart.temperature_sensor_kelvin[0], 295);
	CHECK_EQ_U64(h.nvme_smart.temperature_sensor_kelvin[1], 0);
	CHECK_EQ_U64(h.nvme_smart.temperature_sensor_kelvin[2], 0);
	CHECK_EQ_U64(h.nvme_smart.temperature_sensor_kelvin[3], 65535);

	/* power-on hours near 2^64 (ATA/SCSI power_on_time): hours x 3600
	 * wrapped to a small number of seconds; now saturated and marked */
	CHECK_EQ_I64(parse(ATA "\"power_on_time\":{\"hours\":18446744073709551615,"
			   "\"minutes\":59}}"), 0);
	CHECK(WW_HAS(h.power_on_seconds));
	CHECK_EQ_U64(h.power_on_seconds.value, UINT64_MAX);
	CHECK(h.power_on_seconds.saturated);
	/* 5124095576030431 h is the last that fits: x 3600 < 2^64 */
	CHECK_EQ_I64(parse(ATA "\"power_on_time\":{\"hours\":5124095576030431}}"), 0);
	CHECK_EQ_U64(h.power_on_seconds.value, 5124095576030431ull * 3600);
	CHECK(!h.power_on_seconds.saturated);
	CHECK_EQ_I64(parse(ATA "\"power_on_time\":{\"hours\":5124095576030432}}"), 0);
	CHECK(h.power_on_seconds.saturated);
	/* SCSI keeps minutes: hours x 60 + minutes, saturating the same way */
	CHECK_EQ_I64(parse("{\"device\":{\"protocol\":\"SCSI\",\"type\":\"scsi\"},"
			   "\"scsi_model_name\":\"X\",\"power_on_time\":{\"hours\":"
			   "18446744073709551615,\"minutes\":1}}"), 0);
	CHECK(h.scsi.power_on_minutes.saturated);
	CHECK_EQ_U64(h.scsi.power_on_minutes.value, UINT64_MAX);
	/* device statistics wider than the log's field are not readings (the
	 * finish step multiplies hours by 3600) */
	CHECK_EQ_I64(parse(ATA "\"ata_device_statistics\":{\"pages\":[{\"number\":1,\"table\":["
			   "{\"offset\":16,\"value\":18446744073709551615}]},{\"number\":5,"
			   "\"table\":[{\"offset\":8,\"value\":9223372036854775807}]}]}}"), 0);
	CHECK(!WW_HAS(h.ata.devstat_power_on_hours));
	CHECK(!WW_HAS(h.ata.devstat_temperature_celsius));
	CHECK_EQ_I64(parse(ATA "\"ata_device_statistics\":{\"pages\":[{\"number\":1,\"table\":["
			   "{\"offset\":16,\"value\":4294967295}]}]}}"), 0);
	CHECK_EQ_U64(h.ata.devstat_power_on_hours.value, 4294967295ull);
	/* local_time: kept when smartctl could have written it, dropped when
	 * it predates the release of the smartctl that wrote the file (the
	 * placeholder 1234567890 of smartctl_exporter's test files; smartmontools
	 * NEWS: 7.3 2022-02-28, 7.5 2025-04-30, -j since 7.0 2018-12-30) */
	{
		ww_smartctl_info_t info;
		static const struct {
			const char *json;
			time_t want;
		} lt[] = {
			{ "{\"smartctl\":{\"version\":[7,3]},\"local_time\":{\"time_t\":1652220188}}",
			  1652220188 },
			{ "{\"smartctl\":{\"version\":[7,3]},\"local_time\":{\"time_t\":1234567890}}",
			  0 },
			{ "{\"smartctl\":{\"version\":[7,5]},\"local_time\":{\"time_t\":1652220188}}",
			  0 },
			{ "{\"smartctl\":{\"version\":[7,4]},\"local_time\":{\"time_t\":1646006400}}",
			  1646006400 },
			{ "{\"local_time\":{\"time_t\":1546127999}}", 0 },
			{ "{\"local_time\":{\"time_t\":1546128000}}", 1546128000 },
			{ "{\"local_time\":{\"time_t\":-5}}", 0 },
		};

		for (size_t i = 0; i < sizeof(lt) / sizeof(lt[0]); i++) {
			memset(&h, 0, sizeof(h));
			ww_smartctl_parse(lt[i].json, strlen(lt[i].json), &h, &info);
			CHECK_EQ_I64(info.local_time, lt[i].want);
		}
	}
	return ww_test_done("test_collect_smartctl_json");
}
