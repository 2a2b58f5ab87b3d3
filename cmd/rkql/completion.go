package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// subcommands are the words rkql takes as its first argument.
var subcommands = []string{"import", "store", "completion"}

// fileFlags are the flags whose value is a file or a directory.
var fileFlags = map[string]string{"catalog": "file", "f": "file", "history": "file", "store": "dir"}

// runCompletion writes the completion script of a shell: rkql completion
// bash|zsh|fish.
func runCompletion(args []string, e env) int {
	if len(args) != 1 {
		fmt.Fprintln(e.stderr, "rkql: completion takes one of bash, zsh, fish")
		return exitUsage
	}
	fs := flag.NewFlagSet("rkql", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	registerShellFlags(fs, &options{})
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	switch args[0] {
	case "bash":
		fmt.Fprint(e.stdout, bashCompletion(names))
	case "zsh":
		fmt.Fprint(e.stdout, "autoload -U +X bashcompinit && bashcompinit\n"+bashCompletion(names))
	case "fish":
		fmt.Fprint(e.stdout, fishCompletion(fs))
	default:
		fmt.Fprintf(e.stderr, "rkql: completion takes one of bash, zsh, fish, not %q\n", args[0])
		return exitUsage
	}
	return exitOK
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func bashCompletion(names []string) string {
	var flags, files, dirs []string
	for _, n := range names {
		flags = append(flags, dashed(n))
		switch fileFlags[n] {
		case "file":
			files = append(files, dashed(n))
		case "dir":
			dirs = append(dirs, dashed(n))
		}
	}
	return fmt.Sprintf(`# rkql completion for bash: source <(rkql completion bash)
_rkql() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	case "$prev" in
	%s) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	%s) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W "table csv tsv json jsonl markdown" -- "$cur")); return ;;
	store) COMPREPLY=($(compgen -W "check repair" -- "$cur")); return ;;
	completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "%s --help" -- "$cur"))
	elif [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W "%s" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _rkql rkql
`, strings.Join(files, "|"), strings.Join(dirs, "|"), strings.Join(flags, " "), strings.Join(subcommands, " "))
}

func fishCompletion(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString("# rkql completion for fish: rkql completion fish | source\n")
	fmt.Fprintf(&b, "complete -c rkql -n __fish_use_subcommand -a %q\n", strings.Join(subcommands, " "))
	fs.VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		opt := "-l " + f.Name
		if len(f.Name) == 1 {
			opt = "-s " + f.Name
		}
		extra := ""
		switch {
		case f.Name == "format":
			extra = " -x -a 'table csv tsv json jsonl markdown'"
		case fileFlags[f.Name] != "":
			extra = " -r -F"
		}
		fmt.Fprintf(&b, "complete -c rkql %s%s -d %q\n", opt, extra, strings.SplitN(usage, " (", 2)[0])
	})
	return b.String()
}
