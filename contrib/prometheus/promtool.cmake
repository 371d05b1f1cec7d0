# ctest: the shipped Prometheus rules pass `promtool check rules` and their unit tests
# (Debian's prometheus package, installed by scripts/deps.sh test). A missing promtool is
# a failure, not a skip: CI installs it.
find_program(PROMTOOL promtool)
if(NOT PROMTOOL)
  set(PROMTOOL promtool)
endif()
add_test(NAME promtool_rules_check
  COMMAND ${PROMTOOL} check rules ${CMAKE_SOURCE_DIR}/contrib/prometheus/wearwatch-rules.yml)
add_test(NAME promtool_rules_test
  COMMAND ${PROMTOOL} test rules wearwatch-rules.test.yml
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/contrib/prometheus)
set_tests_properties(promtool_rules_check promtool_rules_test PROPERTIES LABELS unit)
# The shipped rules and Grafana dashboards in a real Prometheus and Alertmanager
# (Debian's prometheus and prometheus-alertmanager, on loopback, started by the
# test) scraping three replaying wearwatch hosts and one reading real drives'
# smartctl JSON of WW_FIXTURES through a stand-in smartctl; about 110 s.
add_test(NAME prometheus_fleet
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/prometheus/test_fleet.py $<TARGET_FILE:wearwatch>
          ${CMAKE_SOURCE_DIR})
set_tests_properties(prometheus_fleet PROPERTIES LABELS "service;prometheus" TIMEOUT 240
  ENVIRONMENT "WW_FIXTURES=${WW_FIXTURES}" SKIP_RETURN_CODE 77)
# Beyond one Prometheus: Debian's prometheus in agent mode scrapes a replaying
# wearwatch and remote-writes to a second one (the remote-write receiver)
# that evaluates the shipped rules; the recording rules and alerts there
# keep instance, job and the agent's external labels; a full site Prometheus
# forwards docs/fleet.md's kept series to a third; about 50 s.
add_test(NAME prometheus_agent
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/prometheus/test_agent.py $<TARGET_FILE:wearwatch>
          ${CMAKE_SOURCE_DIR})
set_tests_properties(prometheus_agent PROPERTIES LABELS "service;prometheus" TIMEOUT 120)
# alertmanager-example.yml: valid to amtool, and its inhibit chain covers every drive
# alert of the shipped rules and of docs/migrating.md's block (one page per drive)
find_program(AMTOOL amtool)
if(NOT AMTOOL)
  set(AMTOOL amtool)
endif()
add_test(NAME alertmanager_example_check
  COMMAND ${AMTOOL} check-config ${CMAKE_SOURCE_DIR}/contrib/prometheus/alertmanager-example.yml)
add_test(NAME alertmanager_example_inhibit
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/prometheus/check_inhibit.py ${CMAKE_SOURCE_DIR})
set_tests_properties(alertmanager_example_check alertmanager_example_inhibit PROPERTIES LABELS unit)
# The fleet page's data against a stand-in Prometheus of 100,000 drives
# (tests/prometheus/stub_prometheus.py): bounded answers, the problem set, host pages,
# down targets, the tenant header; about 15 s.
add_test(NAME fleet_page_scale
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/prometheus/test_fleet_scale.py $<TARGET_FILE:wearwatch>)
set_tests_properties(fleet_page_scale PROPERTIES LABELS service TIMEOUT 180)
