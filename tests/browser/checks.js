/* The browser tests' tally: check(cond, what, detail) prints "ok   what" or
 * "FAIL what: detail" and counts it; passed and failures (the FAIL lines'
 * texts) are read at the end. */
'use strict';

const failures = [];
const tally = { passed: 0, failures };

function check(cond, what, detail) {
	if (cond) {
		tally.passed++;
		console.log('ok   ' + what);
	} else {
		failures.push(what + (detail ? ': ' + detail : ''));
		console.log('FAIL ' + what + (detail ? ': ' + detail : ''));
	}
}

module.exports = { check, tally };
