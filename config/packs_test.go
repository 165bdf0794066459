package config

import (
	"strings"
	"testing"
)

// TestPacks: [packs] enable and disable name built-in rule packs; a
// project file may only enable; later layers win; a pack named in both
// lists of one file, an unknown pack or a wrong type is an error.
func TestPacks(t *testing.T) {
	apply := func(c *Config, layer, src string) error {
		return applySource(c, &LoadOptions{BuiltinLevel: builtinLevel, Env: env(nil)}, "/h", layer, "/f.toml", []byte(src))
	}
	c := Default()
	if c.PacksChanged() || !c.PackOn("core.git") || c.PackOn("no.such") {
		t.Fatal("defaults")
	}
	if err := apply(c, LayerUser, "[packs]\ndisable = [\"core.git\", \"disks\"]\n"); err != nil {
		t.Fatal(err)
	}
	if c.PackOn("core.git") || c.PackOn("disks") || !c.PacksChanged() || c.Packs["core.git"].Source.Line != 2 {
		t.Errorf("user disable: %+v", c.Packs)
	}
	if err := apply(c, LayerProject, "[packs]\nenable = [\"core.git\"]\ndisable = [\"core.filesystem\"]\n"); err != nil {
		t.Fatal(err)
	}
	if !c.PackOn("core.git") || !c.PackOn("core.filesystem") || c.PackOn("disks") {
		t.Errorf("project: %+v", c.Packs)
	}
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], `a project file may not disable rule pack "core.filesystem"`) {
		t.Errorf("notices %q", c.Notices)
	}
	if err := apply(c, LayerExplicit, "[packs]\ndisable = [\"core.git\"]\n"); err != nil || c.PackOn("core.git") {
		t.Errorf("explicit disable: %v %+v", err, c.Packs)
	}
	for src, want := range map[string]string{
		"[packs]\nenable = [\"core.nosuch\"]\n":                        `no built-in rule pack is called "core.nosuch"`,
		"[packs]\nenable = [\"core.git\"]\ndisable = [\"core.git\"]\n": "both enabled and disabled",
		"[packs]\nenable = \"core.git\"\n":                             "want an array of strings",
		"[packs]\nturn_on = []\n":                                      "unknown key",
		"packs = 1\n":                                                  "want a table",
	} {
		if err := apply(Default(), LayerUser, src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}
