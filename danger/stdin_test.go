package danger_test

import (
	"slices"
	"testing"

	"github.com/shellguard/shellguard/danger"
)

// Spec.Stdin reads the text the line feeds a program on its standard
// input (shellparse's Invocation.Stdin): heredoc bodies, here-strings and
// what echo, printf or cat of such a text pipe into it, through wrappers
// and shell strings; never a pipe from another program or a file.
func TestSpecStdin(t *testing.T) {
	d, err := danger.NewDetector([]danger.Pattern{{
		Name: "sql_drop_database", Level: danger.High, Description: "drops a database",
		Match: &danger.Spec{Programs: []string{"psql", "mysql"}, Stdin: `(?is).*\bdrop\s+database\b.*`},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"psql <<'EOF'\nDROP DATABASE prod;\nEOF",
		"psql -h db.example.com <<EOF\nselect 1;\ndrop database prod;\nEOF",
		"sudo -u postgres psql <<-'SQL'\n\tDROP DATABASE prod;\n\tSQL",
		"mysql -u root <<< 'DROP DATABASE shop'",
		`echo "DROP DATABASE prod;" | psql`,
		`printf '%s\n' 'DROP DATABASE prod;' | mysql -u root`,
		"cat <<'EOF' | psql -f -\nDROP DATABASE prod;\nEOF",
		"bash -c 'psql' <<'EOF'\nDROP DATABASE prod;\nEOF",
		"timeout 30 psql <<< \"drop database prod\"",
	} {
		if got := rulesFor(d, line); !slices.Contains(got, "sql_drop_database") {
			t.Errorf("Check(%q) = %v, want sql_drop_database", line, got)
		}
	}
	for _, line := range []string{
		"psql <<'EOF'\nSELECT datname FROM pg_database;\nEOF",
		`psql < drop.sql`,
		`cat drop.sql | psql`,
		`echo "DROP DATABASE prod;"`,
		"cat <<'EOF' > drop.sql\nDROP DATABASE prod;\nEOF",
		`psql <<< "$SQL"`,
		"sqlite3 x.db <<'EOF'\nDROP DATABASE prod;\nEOF",
	} {
		if got := rulesFor(d, line); slices.Contains(got, "sql_drop_database") {
			t.Errorf("Check(%q) = %v, want no sql_drop_database", line, got)
		}
	}
}
