# QEMU VM integration test (see tests/vm/test_vm.py). Boots Debian's kernel
# under TCG once and checks `wearwatch serve` against the kernel's nvme, ahci
# and scsi_debug drivers. Skips (77) only when qemu-system-x86_64 or
# /boot/vmlinuz-* is missing; run `scripts/deps.sh test` to install them.
find_program(WW_PYTHON3 python3)
if(WW_PYTHON3)
  add_test(NAME vm_integration
    COMMAND ${WW_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/vm/test_vm.py
            --binary $<TARGET_FILE:wearwatch>
            --source ${CMAKE_SOURCE_DIR}
            --artifacts ${CMAKE_BINARY_DIR}/vm-artifacts)
  set_tests_properties(vm_integration PROPERTIES
    LABELS vm TIMEOUT 1200 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
else()
  message(WARNING "python3 not found: the vm_integration test is not defined")
endif()
