# Dashboard test in headless chromium (tests/browser/, label browser):
# `wearwatch serve` on recorded drives with seeded history; screenshots in
# <build>/browser-artifacts.
add_test(NAME browser_dashboard
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/browser/run.sh $<TARGET_FILE:wearwatch>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/browser-artifacts)
set_tests_properties(browser_dashboard PROPERTIES LABELS browser TIMEOUT 300
                     RESOURCE_LOCK ww_browser_node_modules
                     ENVIRONMENT "TZ=Europe/Berlin;LC_ALL=C.UTF-8")
# The qualify HTML report of two real runs on a loop device, opened offline
# in headless chromium and checked against the run's JSON (root and a loop
# device, else skipped with 77); screenshot qualify.png in the same folder.
# Both run `npm ci` in tests/browser, which empties node_modules first: never
# at the same time (the resource lock).
add_test(NAME browser_qualify_report
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/browser/run_qualify.sh $<TARGET_FILE:wearwatch>
                 ${CMAKE_BINARY_DIR}/browser-artifacts)
set_tests_properties(browser_qualify_report PROPERTIES LABELS browser TIMEOUT 300
                     SKIP_RETURN_CODE 77 RESOURCE_LOCK ww_browser_node_modules
                     ENVIRONMENT "LC_ALL=C.UTF-8")
