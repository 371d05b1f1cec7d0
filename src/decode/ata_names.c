/* Default ATA SMART attribute meanings: smartmontools' drivedb.h "DEFAULT"
 * entry (smartmontools 7.3, as installed in
 * /usr/share/smartmontools/drivedb.h): name, raw format and whether the name
 * is for HDDs or SSDs only (",HDD" / ",SSD"). Ids it leaves out are
 * "Unknown_Attribute", raw48. A model's own presets (src/collect/drivedb.c)
 * are applied over these by ww_ata_finish_presets. */
#include "wearwatch/decode.h"

struct ww_ata_default {
	const char *name;
	uint8_t format; /* ww_ata_rawfmt_t */
	uint8_t only;   /* WW_ATA_DEF_HDD / WW_ATA_DEF_SSD */
};

static const struct ww_ata_default ww_ata_defaults[256] = {
	[1] = { "Raw_Read_Error_Rate", WW_RAWFMT_RAW48, 0 },
	[2] = { "Throughput_Performance", WW_RAWFMT_RAW48, 0 },
	[3] = { "Spin_Up_Time", WW_RAWFMT_RAW16_AVG16, 0 },
	[4] = { "Start_Stop_Count", WW_RAWFMT_RAW48, 0 },
	[5] = { "Reallocated_Sector_Ct", WW_RAWFMT_RAW16_RAW16, 0 },
	[6] = { "Read_Channel_Margin", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[7] = { "Seek_Error_Rate", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[8] = { "Seek_Time_Performance", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[9] = { "Power_On_Hours", WW_RAWFMT_RAW24_RAW8, 0 },
	[10] = { "Spin_Retry_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[11] = { "Calibration_Retry_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[12] = { "Power_Cycle_Count", WW_RAWFMT_RAW48, 0 },
	[13] = { "Read_Soft_Error_Rate", WW_RAWFMT_RAW48, 0 },
	[175] = { "Program_Fail_Count_Chip", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[176] = { "Erase_Fail_Count_Chip", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[177] = { "Wear_Leveling_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[178] = { "Used_Rsvd_Blk_Cnt_Chip", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[179] = { "Used_Rsvd_Blk_Cnt_Tot", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[180] = { "Unused_Rsvd_Blk_Cnt_Tot", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[181] = { "Program_Fail_Cnt_Total", WW_RAWFMT_RAW48, 0 },
	[182] = { "Erase_Fail_Count_Total", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[183] = { "Runtime_Bad_Block", WW_RAWFMT_RAW48, 0 },
	[184] = { "End-to-End_Error", WW_RAWFMT_RAW48, 0 },
	[187] = { "Reported_Uncorrect", WW_RAWFMT_RAW48, 0 },
	[188] = { "Command_Timeout", WW_RAWFMT_RAW48, 0 },
	[189] = { "High_Fly_Writes", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[190] = { "Airflow_Temperature_Cel", WW_RAWFMT_TEMPMINMAX, 0 },
	[191] = { "G-Sense_Error_Rate", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[192] = { "Power-Off_Retract_Count", WW_RAWFMT_RAW48, 0 },
	[193] = { "Load_Cycle_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[194] = { "Temperature_Celsius", WW_RAWFMT_TEMPMINMAX, 0 },
	[195] = { "Hardware_ECC_Recovered", WW_RAWFMT_RAW48, 0 },
	[196] = { "Reallocated_Event_Count", WW_RAWFMT_RAW16_RAW16, 0 },
	[197] = { "Current_Pending_Sector", WW_RAWFMT_RAW48, 0 },
	[198] = { "Offline_Uncorrectable", WW_RAWFMT_RAW48, 0 },
	[199] = { "UDMA_CRC_Error_Count", WW_RAWFMT_RAW48, 0 },
	[200] = { "Multi_Zone_Error_Rate", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[201] = { "Soft_Read_Error_Rate", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[202] = { "Data_Address_Mark_Errs", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[203] = { "Run_Out_Cancel", WW_RAWFMT_RAW48, 0 },
	[204] = { "Soft_ECC_Correction", WW_RAWFMT_RAW48, 0 },
	[205] = { "Thermal_Asperity_Rate", WW_RAWFMT_RAW48, 0 },
	[206] = { "Flying_Height", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[207] = { "Spin_High_Current", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[208] = { "Spin_Buzz", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[209] = { "Offline_Seek_Performnce", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD }, /* sic */
	[220] = { "Disk_Shift", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[221] = { "G-Sense_Error_Rate", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[222] = { "Loaded_Hours", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[223] = { "Load_Retry_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[224] = { "Load_Friction", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[225] = { "Load_Cycle_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[226] = { "Load-in_Time", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[227] = { "Torq-amp_Count", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[228] = { "Power-off_Retract_Count", WW_RAWFMT_RAW48, 0 },
	[230] = { "Head_Amplitude", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[231] = { "Temperature_Celsius", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
	[232] = { "Available_Reservd_Space", WW_RAWFMT_RAW48, 0 },
	[233] = { "Media_Wearout_Indicator", WW_RAWFMT_RAW48, WW_ATA_DEF_SSD },
	[240] = { "Head_Flying_Hours", WW_RAWFMT_RAW24_RAW8, WW_ATA_DEF_HDD },
	[241] = { "Total_LBAs_Written", WW_RAWFMT_RAW48, 0 },
	[242] = { "Total_LBAs_Read", WW_RAWFMT_RAW48, 0 },
	[250] = { "Read_Error_Retry_Rate", WW_RAWFMT_RAW48, 0 },
	[254] = { "Free_Fall_Sensor", WW_RAWFMT_RAW48, WW_ATA_DEF_HDD },
};

const char *ww_ata_attr_name(uint8_t id)
{
	const char *n = ww_ata_defaults[id].name;

	return n ? n : "Unknown_Attribute";
}

const char *ww_ata_attr_name_rpm(uint8_t id, unsigned rpm)
{
	const struct ww_ata_default *d = &ww_ata_defaults[id];

	if (d->name && d->only == WW_ATA_DEF_HDD && rpm == 1)
		return "Unknown_SSD_Attribute";
	if (d->name && d->only == WW_ATA_DEF_SSD && rpm > 1)
		return "Unknown_HDD_Attribute";
	return ww_ata_attr_name(id);
}

ww_ata_rawfmt_t ww_ata_attr_default_format(uint8_t id)
{
	return ww_ata_defaults[id].format ? (ww_ata_rawfmt_t)ww_ata_defaults[id].format
					   : WW_RAWFMT_RAW48;
}

/* Device Statistics entries by page (1-7) and index (offset / 8), as ACS-4
 * 9.5 defines them and smartctl names them (smartmontools 7.3 ataprint.cpp
 * devstat_info_0x01 ... 0x07): size in bytes, -1 a signed byte. */
static const struct {
	int8_t size;
	const char *name;
} ww_devstat_info[8][14] = {
	[1] = { { 2, "General Statistics" }, { 4, "Lifetime Power-On Resets" },
		{ 4, "Power-on Hours" }, { 6, "Logical Sectors Written" },
		{ 6, "Number of Write Commands" }, { 6, "Logical Sectors Read" },
		{ 6, "Number of Read Commands" }, { 6, "Date and Time TimeStamp" } },
	[2] = { { 2, "Free-Fall Statistics" }, { 4, "Number of Free-Fall Events Detected" },
		{ 4, "Overlimit Shock Events" } },
	[3] = { { 2, "Rotating Media Statistics" }, { 4, "Spindle Motor Power-on Hours" },
		{ 4, "Head Flying Hours" }, { 4, "Head Load Events" },
		{ 4, "Number of Reallocated Logical Sectors" }, { 4, "Read Recovery Attempts" },
		{ 4, "Number of Mechanical Start Failures" },
		{ 4, "Number of Realloc. Candidate Logical Sectors" } },
	[4] = { { 2, "General Errors Statistics" },
		{ 4, "Number of Reported Uncorrectable Errors" },
		{ 4, "Resets Between Cmd Acceptance and Completion" } },
	[5] = { { 2, "Temperature Statistics" }, { -1, "Current Temperature" },
		{ -1, "Average Short Term Temperature" }, { -1, "Average Long Term Temperature" },
		{ -1, "Highest Temperature" }, { -1, "Lowest Temperature" },
		{ -1, "Highest Average Short Term Temperature" },
		{ -1, "Lowest Average Short Term Temperature" },
		{ -1, "Highest Average Long Term Temperature" },
		{ -1, "Lowest Average Long Term Temperature" }, { 4, "Time in Over-Temperature" },
		{ -1, "Specified Maximum Operating Temperature" },
		{ 4, "Time in Under-Temperature" },
		{ -1, "Specified Minimum Operating Temperature" } },
	[6] = { { 2, "Transport Statistics" }, { 4, "Number of Hardware Resets" },
		{ 4, "Number of ASR Events" }, { 4, "Number of Interface CRC Errors" } },
	[7] = { { 2, "Solid State Device Statistics" },
		{ 1, "Percentage Used Endurance Indicator" } },
};

const char *ww_ata_devstat_name(uint8_t page, uint16_t offset, int *size)
{
	unsigned i = offset / 8;

	if (page < 1 || page > 7 || offset % 8 || i < 1 || i >= 14 ||
	    !ww_devstat_info[page][i].name)
		return NULL;
	if (size)
		*size = ww_devstat_info[page][i].size;
	return ww_devstat_info[page][i].name;
}

const char *ww_ata_devstat_page_name(uint8_t page)
{
	return page >= 1 && page <= 7 ? ww_devstat_info[page][0].name : NULL;
}

bool ww_ata_verdict_count_id(uint8_t id)
{
	static const uint8_t ids[] = { 5, 10, 187, 196, 197, 198 };

	for (size_t i = 0; i < sizeof(ids); i++)
		if (ids[i] == id)
			return true;
	return false;
}
