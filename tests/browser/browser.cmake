# Dashboard test in headless chromium (tests/browser/, label browser):
# `wearwatch serve` on recorded drives with seeded history; screenshots in
# <build>/browser-artifacts.
add_test(NAME browser_dashboard
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/browser/run.sh $<TARGET_FILE:wearwatch>
                 ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/browser-artifacts)
set_tests_properties(browser_dashboard PROPERTIES LABELS browser TIMEOUT 300
                     ENVIRONMENT "TZ=Europe/Berlin;LC_ALL=C.UTF-8")
