{ "Open family", "OPEN [0-9]+", "", "",
  "-v 9,minutes"
