package approval

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
)

// checkEvent holds appendEvent to encoding/json, and decodeEvent (when it
// reads the line) to json.Unmarshal.
func checkEvent(t *testing.T, ev *event) {
	t.Helper()
	got, err := appendEvent(nil, ev)
	if err != nil {
		t.Fatal(err)
	}
	want := testbin.JSONLine(t, ev)
	if !bytes.Equal(got, want) {
		t.Fatalf("appendEvent:\n%s\nencoding/json:\n%s", got, want)
	}
	checkDecode(t, got, ev.Grant == nil)
}

// checkDecode holds decodeEvent to json.Unmarshal on line; must says it
// has to read the line itself.
func checkDecode(t *testing.T, line []byte, must bool) {
	t.Helper()
	var fast, slow event
	ok := decodeEvent(line, &fast)
	if must && !ok {
		t.Fatalf("decodeEvent does not read %s", line)
	}
	if !ok {
		return
	}
	if err := json.Unmarshal(line, &slow); err != nil {
		t.Fatalf("decodeEvent read %q, which json.Unmarshal refuses: %v", line, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q:\ndecodeEvent:    %#v\njson.Unmarshal: %#v", line, fast, slow)
	}
}

func TestEventCodec(t *testing.T) {
	when := time.Date(2026, 12, 3, 10, 15, 0, 123456789, time.UTC)
	for _, ev := range []event{
		{},
		{Event: "refused", Refusal: Refusal{Code: "ABCD2345", Command: "git push --force", Digest: "ab12", Cwd: "/src/app",
			CwdID: "64769:1234", Time: when, Count: 3, Expires: when.Add(time.Hour), Verdict: "ask", Reason: "force push",
			Level: "high", Rules: []string{"ask: git push *"}, Source: "hook:claude", Session: "s1", Prefixes: []string{"git push"}}},
		{Event: "refused", Refusal: Refusal{Command: "a\"b\\c\n\r\t\b\f\x00\x1f\x7f<>&\u2028\u2029é日本", Truncated: true,
			Time: when.In(time.FixedZone("x", -5*3600)), Verdict: "deny", Rules: []string{}, PrefixReason: "dynamic", Locked: true}},
		{Event: "approved", Refusal: Refusal{Code: "ABCD2345", Approved: when, ApprovedUntil: when.Add(time.Minute)}},
		{Event: "used", Refusal: Refusal{Code: "ABCD2345", Used: when, Count: -7}},
		{Event: "session", Grant: &SessionGrant{Session: "s1", Source: "mcp", Entry: Entry{Kind: Prefix, Pattern: "npm test", GrantedAt: when}}},
		{Event: "refused", Refusal: Refusal{Time: time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC)}}, // MarshalJSON refuses: encoding/json's error
	} {
		if y := ev.Time.Year(); y > 9999 {
			if _, err := appendEvent(nil, &ev); err == nil {
				t.Errorf("appendEvent of year %d: no error", y)
			}
			continue
		}
		checkEvent(t, &ev)
	}
	// Lines decodeEvent reads itself (fast) or leaves to json.Unmarshal.
	for _, c := range []struct {
		line string
		fast bool
	}{
		{`{}`, true}, {` { "event" : "used" , "code":"X" } `, true}, {`{"code":"\u00e9\/\"\\"}`, true},
		{`{"rules":[]}`, true}, {`{"rules":["a"],"rules":["b"]}`, true}, {`{"count":-0}`, true},
		{`{"time":"2026-12-03T10:15:00Z"}`, true},
		{`{"count":01}`, false}, {`{"count":1e2}`, false}, {`{"count":99999999999999999999}`, false},
		{`{"Code":"x"}`, false}, {`{"code":null}`, false}, {`{"code":"\ud800"}`, false}, {`{"code":"\ud83d\ude00"}`, false},
		{"{\"code\":\"\xff\"}", false}, {"{\"code\":\"a\x01\"}", false}, {`{"truncated":truex}`, false},
		{`{"time":"2026-12-03 10:15:00"}`, false}, {`{"time":"\u0032026-12-03T10:15:00Z"}`, false},
		{`{"code":"a"} x`, false}, {`{"code":"a",}`, false}, {`{"event":"session","session_approval":{"session":"s"}}`, false},
		{`{"unknown":1}`, false}, {`[]`, false},
	} {
		var ev event
		if got := decodeEvent([]byte(c.line), &ev); got != c.fast {
			t.Errorf("decodeEvent(%s) reads it: %v, want %v", c.line, got, c.fast)
		}
		checkDecode(t, []byte(c.line), c.fast)
	}
}

func FuzzEventCodec(f *testing.F) {
	f.Add("refused", "rm -rf /", "a\x00\"\\\u2028\xff", int64(1764756900123456789), 3, true, -3600)
	f.Add("", "", "", int64(0), 0, false, 0)
	f.Add("refused", `{"event":"refused","code":"A\u00e9","count":12,"rules":["a","b\n"],"time":"2026-12-03T10:15:00.5+01:00","locked":true}`, "", int64(0), 0, false, 0)
	f.Add("used", ` {"used":"2026-12-03T10:15:00Z" ,"truncated":false, "prefixes":[ ]}`, "", int64(0), 0, false, 0)
	f.Fuzz(func(t *testing.T, kind, cmd, other string, nanos int64, count int, flag bool, zone int) {
		when := time.Unix(0, nanos).In(time.FixedZone("", zone%(24*3600)))
		ev := event{Event: kind, Refusal: Refusal{Code: other, Command: cmd, Digest: other, Truncated: flag, Cwd: cmd, CwdID: other,
			Time: when, Count: count, Expires: when.Add(time.Hour), Verdict: kind, Reason: other, Level: other,
			Rules: []string{other, cmd}, Source: other, Session: cmd, PrefixReason: other, Locked: !flag}}
		if flag {
			ev.Approved, ev.Used, ev.Prefixes = when, when.UTC(), []string{}
		}
		checkEvent(t, &ev)
		// Whatever the line, decodeEvent reads it as json.Unmarshal or
		// not at all.
		checkDecode(t, []byte(cmd), false)
	})
}
