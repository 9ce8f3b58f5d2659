package quickstart

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
)

// Kinds of quickstart steps.
const (
	stepShell   = "shell"   // one command line
	stepServer  = "server"  // a command line that serves until stopped
	stepFile    = "file"    // write a file
	stepReplace = "replace" // replace a Go method in a file
)

// step is one thing the README asks the reader to do.
type step struct {
	kind string
	// line is the command of shell and server steps.
	line string
	// path and text are the file of file and replace steps; method is
	// the name of the replaced method.
	path, text, method string
	// wantExit is the exit code the README announces (a "# exits N"
	// comment), 0 by default.
	wantExit int
}

var (
	fileIntro    = regexp.MustCompile("^`([^`]+)`:$")
	replaceIntro = regexp.MustCompile("^In `([^`]+)`, replace the method `([A-Za-z0-9_]+)` with:$")
	exitsComment = regexp.MustCompile(`#\s*exits (\d+)`)
)

// Markers around the quickstart in README.md.
const (
	beginMarker = "<!-- quickstart -->"
	endMarker   = "<!-- /quickstart -->"
)

// parseQuickstart returns the steps of the README's quickstart: every
// sh block's lines (comments and blank lines skipped; a line that starts
// a server with go run ./out/cmd/ runs in the background), every fenced
// block introduced by a line "`path`:" (a file to write), and every go
// block introduced by "In `path`, replace the method `Name` with:".
func parseQuickstart(readme string) ([]step, error) {
	start, end := strings.Index(readme, beginMarker), strings.Index(readme, endMarker)
	if start < 0 || end < start {
		return nil, fmt.Errorf("README.md has no %s … %s section", beginMarker, endMarker)
	}
	sc := bufio.NewScanner(strings.NewReader(readme[start+len(beginMarker) : end]))
	var steps []step
	var intro string
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "```") {
			if strings.TrimSpace(line) != "" {
				intro = strings.TrimSpace(line)
			}
			continue
		}
		lang := strings.TrimPrefix(line, "```")
		body, err := fenced(sc)
		if err != nil {
			return nil, err
		}
		steps = append(steps, blockSteps(lang, intro, body)...)
		intro = ""
	}
	return steps, nil
}

// fenced reads a fenced block's lines up to its closing fence.
func fenced(sc *bufio.Scanner) ([]string, error) {
	var body []string
	for sc.Scan() {
		if sc.Text() == "```" {
			return body, nil
		}
		body = append(body, sc.Text())
	}
	return nil, fmt.Errorf("README.md: a fenced block is not closed")
}

// blockSteps turns one fenced block into steps, by its language and the
// line before it.
func blockSteps(lang, intro string, body []string) []step {
	text := strings.Join(body, "\n") + "\n"
	if m := replaceIntro.FindStringSubmatch(intro); m != nil && lang == "go" {
		return []step{{kind: stepReplace, path: m[1], method: m[2], text: text}}
	}
	if m := fileIntro.FindStringSubmatch(intro); m != nil {
		return []step{{kind: stepFile, path: m[1], text: text}}
	}
	if lang != "sh" {
		return nil
	}
	var out []step
	for _, l := range body {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		s := step{kind: stepShell, line: l}
		if strings.HasPrefix(l, "go run ./out/cmd/") {
			s.kind = stepServer
		}
		if m := exitsComment.FindStringSubmatch(l); m != nil {
			fmt.Sscan(m[1], &s.wantExit)
		}
		out = append(out, s)
	}
	return out
}

// replaceMethod replaces the method name of src (from its doc comment's
// first line to its closing brace at the start of a line) with repl.
func replaceMethod(src, name, repl string) (string, error) {
	head := regexp.MustCompile(`(?m)^func \([^)]*\) ` + regexp.QuoteMeta(name) + `\(`)
	loc := head.FindStringIndex(src)
	if loc == nil {
		return "", fmt.Errorf("no method %s", name)
	}
	start := loc[0]
	for start > 0 {
		prev := strings.LastIndex(src[:start-1], "\n") + 1
		if !strings.HasPrefix(src[prev:start], "//") {
			break
		}
		start = prev
	}
	close := strings.Index(src[loc[1]:], "\n}\n")
	if close < 0 {
		return "", fmt.Errorf("method %s has no closing brace", name)
	}
	end := loc[1] + close + len("\n}\n")
	return src[:start] + repl + src[end:], nil
}
