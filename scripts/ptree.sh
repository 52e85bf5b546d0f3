#!/bin/sh
# ptree.sh: stop (SIGSTOP) PID and every process under it, parents
# first, and print their numbers, one a line, for a caller that then
# sends them a signal and SIGCONT. Each is stopped before its children
# are listed, so none can start a child that the list misses (a worker
# starting a guest while the tree is walked); a process that exits
# between its listing and its stop leaves its children out (they pass
# to init). Needs ps (procps).
# Usage: scripts/ptree.sh PID
set -u
ptree() {
	kill -STOP "$1" 2>/dev/null || return 0
	echo "$1"
	for c in $(ps -o pid= --ppid "$1"); do
		ptree "$c"
	done
}
ptree "$1"
