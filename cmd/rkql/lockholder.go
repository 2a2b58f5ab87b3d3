package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockHolder returns the process that holds a flock on file, from Linux's
// /proc/locks, or 0 when it cannot tell.
func lockHolder(file string) int {
	fi, err := os.Stat(file)
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	return findHolder(bufio.NewScanner(f), st.Ino)
}

// findHolder reads /proc/locks lines such as
//
//	3: FLOCK  ADVISORY  WRITE 4711 08:01:1234 0 EOF
//
// and returns the pid of the first granted lock on inode ino. Lines of
// processes waiting for a lock have "->" after the number.
func findHolder(sc *bufio.Scanner, ino uint64) int {
	suffix := ":" + strconv.FormatUint(ino, 10)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] == "->" || f[1] != "FLOCK" {
			continue
		}
		if strings.HasSuffix(f[5], suffix) {
			if pid, err := strconv.Atoi(f[4]); err == nil {
				return pid
			}
		}
	}
	return 0
}

// holderText names the holder of a store's lock for a message.
func holderText(pid int) string {
	if pid == 0 {
		return "another rkql process"
	}
	if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && len(cmd) > 0 {
		args := strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
		line := strings.Join(args, " ")
		if len(line) > 60 {
			line = line[:57] + "..."
		}
		return fmt.Sprintf("process %d (%s)", pid, line)
	}
	return fmt.Sprintf("process %d", pid)
}
