package expr

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// A JavaRegex is a pattern with java.util.regex's meaning, accepted
// only when Go's regexp, given the translated pattern Go, matches
// exactly as Java would (docs/reference.md lists the subset).
type JavaRegex struct {
	Java string
	Go   string
	re   *regexp.Regexp
}

// A RegexError is a refused pattern; At is the character of the
// pattern, from 1, where the problem is; 0 for the whole pattern.
type RegexError struct {
	At  int
	Msg string
}

func (e *RegexError) Error() string {
	if e.At == 0 {
		return "regular expression: " + e.Msg
	}
	return fmt.Sprintf("regular expression: %s at character %d of the pattern", e.Msg, e.At)
}

// javaLineEnds are the characters Java's . does not match.
const javaLineEnds = `\n\r\x{85}\x{2028}\x{2029}`

// javaSpace is Java's \s.
const javaSpace = `\t\n\x0B\f\r `

// CompileJavaRegex translates and compiles pattern, refusing what Go
// would run differently from Java.
func CompileJavaRegex(pattern string) (*JavaRegex, error) {
	rs := []rune(pattern)
	var b strings.Builder
	bad := func(i int, f string, a ...any) error { return &RegexError{At: i + 1, Msg: fmt.Sprintf(f, a...)} }
	dotAll := false
	inClass, classStart := false, 0
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if c == '\\' {
			if i+1 == len(rs) {
				return nil, bad(i, "the pattern ends with a lone \\")
			}
			i++
			e := rs[i]
			switch {
			case e >= '0' && e <= '9':
				return nil, bad(i-1, "backreferences and octal escapes such as \\%c are not supported", e)
			case e == 's' && inClass:
				b.WriteString(javaSpace)
			case e == 's':
				b.WriteString("[" + javaSpace + "]")
			case e == 'S' && !inClass:
				b.WriteString("[^" + javaSpace + "]")
			case strings.ContainsRune("dDwWtnrfa", e), !inClass && (e == 'A' || e == 'z'):
				b.WriteString(`\` + string(e))
			case e == 'e':
				b.WriteString(`\x1B`)
			case e == 'x' || e == 'u':
				j, hex := i+1, ""
				if e == 'x' && j < len(rs) && rs[j] == '{' {
					k := j + 1
					for k < len(rs) && rs[k] != '}' {
						k++
					}
					if k == len(rs) {
						return nil, bad(i-1, "\\x{ is not closed")
					}
					hex, j = string(rs[j+1:k]), k+1
				} else {
					n := 2
					if e == 'u' {
						n = 4
					}
					if j+n > len(rs) {
						return nil, bad(i-1, "\\%c needs %d hex digits", e, n)
					}
					hex, j = string(rs[j:j+n]), j+n
				}
				var v int
				if _, err := fmt.Sscanf(hex, "%x", &v); err != nil || len(hex) == 0 || strings.ContainsAny(hex, " +-") || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
					return nil, bad(i-1, "\\%c%s is not a character", e, hex)
				}
				fmt.Fprintf(&b, `\x{%x}`, v)
				i = j - 1
			case e < utf8.RuneSelf && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z'):
				return nil, bad(i-1, "\\%c is outside the accepted subset of Java's regular expressions", e)
			default:
				b.WriteString(regexp.QuoteMeta(string(e)))
			}
			continue
		}
		if inClass {
			switch {
			case c == '[':
				return nil, bad(i, "a [ inside a character class (a nested class or [:name:]) is not supported; write \\[")
			case c == '&' && i+1 < len(rs) && rs[i+1] == '&':
				return nil, bad(i, "class intersection && is not supported")
			case c == ']' && i == classStart:
				return nil, bad(i, "a ] first in a character class is not supported; write \\]")
			case c == ']':
				inClass = false
			}
			b.WriteRune(c)
			continue
		}
		switch c {
		case '[':
			inClass, classStart = true, i+1
			b.WriteRune(c)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
				classStart++
			}
		case '.':
			if dotAll {
				b.WriteString("(?s:.)")
			} else {
				b.WriteString("[^" + javaLineEnds + "]")
			}
		case '$':
			return nil, bad(i, "$ is not supported (Java's $ also matches before a final line break); write \\z for the end")
		case '(':
			if i+1 < len(rs) && rs[i+1] == '?' {
				rest := string(rs[i+2:])
				switch {
				case strings.HasPrefix(rest, ":"):
					b.WriteString("(?:")
					i += 2
				case strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, "<!") || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "!"):
					return nil, bad(i, "lookaround such as (?= (?! (?<= (?<! is not supported")
				case strings.HasPrefix(rest, ">"):
					return nil, bad(i, "atomic groups (?> are not supported")
				case strings.HasPrefix(rest, "<"):
					k := strings.IndexByte(rest, '>')
					name := ""
					if k > 0 {
						name = rest[1:k]
					}
					if !validGroupName(name) {
						return nil, bad(i, "a group name is a letter then letters or digits")
					}
					b.WriteString("(?P<" + name + ">")
					i += 2 + utf8.RuneCountInString(rest[:k+1]) - 1
				case i == 0 && strings.HasPrefix(rest, "s)"):
					dotAll = true
					i += 3
				default:
					return nil, bad(i, "inline flags and other (? groups are not supported, except (?s) at the start and (?: (?<name>")
				}
				continue
			}
			b.WriteRune(c)
		case '{':
			j := i + 1
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == ',') {
				j++
			}
			body := string(rs[i+1 : j])
			if j == len(rs) || rs[j] != '}' || !validRepeat(body) {
				return nil, bad(i, "a { that does not start a repetition such as {2,3}; write \\{")
			}
			b.WriteString("{" + body + "}")
			i = j
			if err := quantSuffix(rs, &i, &b, bad); err != nil {
				return nil, err
			}
		case '*', '+', '?':
			b.WriteRune(c)
			if err := quantSuffix(rs, &i, &b, bad); err != nil {
				return nil, err
			}
		default:
			b.WriteRune(c)
		}
	}
	if inClass {
		return nil, bad(len(rs)-1, "the character class is not closed")
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		msg := err.Error()
		if se, ok := err.(*syntax.Error); ok {
			msg = se.Code.String()
		}
		return nil, &RegexError{Msg: msg}
	}
	return &JavaRegex{Java: pattern, Go: b.String(), re: re}, nil
}

// quantSuffix copies a lazy ? after a quantifier and refuses a
// possessive +.
func quantSuffix(rs []rune, i *int, b *strings.Builder, bad func(int, string, ...any) error) error {
	if *i+1 < len(rs) && rs[*i+1] == '+' {
		return bad(*i+1, "possessive quantifiers such as *+ ++ ?+ are not supported")
	}
	if *i+1 < len(rs) && rs[*i+1] == '?' {
		b.WriteByte('?')
		*i++
		if *i+1 < len(rs) && rs[*i+1] == '+' {
			return bad(*i+1, "a + after a lazy quantifier is not supported")
		}
	}
	return nil
}

func validRepeat(body string) bool {
	lo, hi, comma := body, "", false
	if k := strings.IndexByte(body, ','); k >= 0 {
		lo, hi, comma = body[:k], body[k+1:], true
	}
	if lo == "" || strings.Contains(hi, ",") {
		return false
	}
	_ = comma
	return true
}

func validGroupName(n string) bool {
	for i, c := range n {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return n != ""
}

// MatchString reports whether the pattern occurs anywhere in s, as
// Java's Matcher.find does.
func (r *JavaRegex) MatchString(s string) bool { return r.re.MatchString(s) }

// canMatchEmpty reports whether the pattern can match the empty
// string, counting every assertion as matching.
func canMatchEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return canMatchEmpty(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || canMatchEmpty(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !canMatchEmpty(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if canMatchEmpty(s) {
				return true
			}
		}
		return false
	}
	return true // empty match, assertions, star, quest
}

// A JavaReplacement is a replacement with Java's Matcher.replaceAll
// syntax: $n and ${name} insert a group, \x is x.
type JavaReplacement struct {
	parts []replPart
}

type replPart struct {
	lit   string
	group int // -1 for a literal
}

// CompileJavaReplacement reads rep against the groups of r.
func CompileJavaReplacement(r *JavaRegex, rep string) (*JavaReplacement, error) {
	ast, err := syntax.Parse(r.Go, syntax.Perl)
	if err == nil && canMatchEmpty(ast) {
		return nil, &RegexError{Msg: "REGEXP_REPLACE refuses a pattern that can match the empty string (Java and Go place empty matches differently)"}
	}
	out := &JavaReplacement{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out.parts = append(out.parts, replPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	bad := func(i int, f string, a ...any) error {
		return fmt.Errorf("replacement: "+f+" at character %d", append(a, i+1)...)
	}
	rs := []rune(rep)
	groups := r.re.NumSubexp()
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\\':
			if i+1 == len(rs) {
				return nil, bad(i, "a lone \\ at the end")
			}
			i++
			lit.WriteRune(rs[i])
		case '$':
			if i+1 == len(rs) {
				return nil, bad(i, "a $ without a group number or {name}")
			}
			flush()
			if rs[i+1] == '{' {
				k := i + 2
				for k < len(rs) && rs[k] != '}' {
					k++
				}
				if k == len(rs) {
					return nil, bad(i, "${ is not closed")
				}
				name := string(rs[i+2 : k])
				g := r.re.SubexpIndex(name)
				if !validGroupName(name) || g < 0 {
					return nil, bad(i, "no group named %q", name)
				}
				out.parts = append(out.parts, replPart{group: g})
				i = k
				continue
			}
			d := rs[i+1]
			if d < '0' || d > '9' {
				return nil, bad(i, "a $ without a group number or {name}; write \\$")
			}
			g := int(d - '0')
			if g > groups {
				return nil, bad(i, "no group %d", g)
			}
			i++
			for i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' && g*10+int(rs[i+1]-'0') <= groups {
				g = g*10 + int(rs[i+1]-'0')
				i++
			}
			out.parts = append(out.parts, replPart{group: g})
		default:
			lit.WriteRune(rs[i])
		}
	}
	flush()
	return out, nil
}

// ReplaceAll replaces every match of r in s.
func (r *JavaRegex) ReplaceAll(s string, rep *JavaReplacement) string {
	var b strings.Builder
	last := 0
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		for _, p := range rep.parts {
			if p.group < 0 {
				b.WriteString(p.lit)
			} else if m[2*p.group] >= 0 {
				b.WriteString(s[m[2*p.group]:m[2*p.group+1]])
			}
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// RegexpLike is REGEXP_LIKE(s, pattern).
func RegexpLike(s Scalar, re *JavaRegex) *Func {
	return &Func{Name: "REGEXP_LIKE", Args: []Scalar{s, &Lit{V: catalog.String(re.Java)}}, T: catalog.TypeBoolean, Apply: strict(catalog.TypeBoolean, func(a []catalog.Value) (catalog.Value, error) {
		return catalog.Bool(re.MatchString(a[0].S)), nil
	})}
}

// RegexpReplace is REGEXP_REPLACE(s, pattern, replacement).
func RegexpReplace(s Scalar, re *JavaRegex, repText string, rep *JavaReplacement) *Func {
	return &Func{Name: "REGEXP_REPLACE", Args: []Scalar{s, &Lit{V: catalog.String(re.Java)}, &Lit{V: catalog.String(repText)}}, T: catalog.TypeString, Apply: strict(catalog.TypeString, func(a []catalog.Value) (catalog.Value, error) {
		return catalog.String(re.ReplaceAll(a[0].S, rep)), nil
	})}
}

var _ ColumnExpr = (*RegexpMatch)(nil)

// RegexpMatch is REGEXP_LIKE(column, pattern) over a STRING column: the
// form of the condition a store can test itself, as HBase's
// RegexStringComparator does (Matcher.find over the value's text).
type RegexpMatch struct {
	Col  int
	Name string
	Re   *JavaRegex
	// Not is NOT REGEXP_LIKE(column, pattern): TRUE where the value
	// holds no match, still UNKNOWN for NULL.
	Not bool
}

func (p *RegexpMatch) Column() int { return p.Col }

func (p *RegexpMatch) WithColumn(c int) Expr { q := *p; q.Col = c; return &q }

// Eval is UNKNOWN for NULL, as REGEXP_LIKE is NULL there.
func (p *RegexpMatch) Eval(r catalog.Row) (Tri, error) {
	v := r[p.Col]
	if v.Null {
		return Unknown, nil
	}
	return TriOf(p.Re.MatchString(v.S) != p.Not), nil
}

func (p *RegexpMatch) String() string {
	s := "REGEXP_LIKE(" + p.Name + ", " + catalog.String(p.Re.Java).String() + ")"
	if p.Not {
		return "NOT " + s
	}
	return s
}
