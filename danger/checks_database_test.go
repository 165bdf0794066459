package danger

import (
	"strings"
	"testing"
)

func TestScanSQL(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want sqlFinding
	}{
		{"DROP DATABASE app", sqlDropDatabase},
		{"drop database if exists app;", sqlDropDatabase},
		{"DROP SCHEMA public CASCADE; CREATE SCHEMA public;", sqlDropDatabase},
		{"DROP KEYSPACE user_data", sqlDropDatabase},
		{"DROP OWNED BY app CASCADE", sqlDropDatabase},
		{"DROP ALL OBJECTS", sqlDropDatabase},
		{"DROP TABLE users", sqlDropTable},
		{"DROP TABLE IF EXISTS \"Users\" CASCADE", sqlDropTable},
		{"DROP EXTERNAL TABLE logs", sqlDropTable},
		{"IF OBJECT_ID('dbo.T') IS NOT NULL DROP TABLE dbo.T", sqlDropTable},
		{"TRUNCATE users", sqlTruncate},
		{"TRUNCATE TABLE a, b RESTART IDENTITY", sqlTruncate},
		{"truncate only audit", sqlTruncate},
		{"TRUNCATE `events`", sqlTruncate},
		{"DELETE FROM orders", sqlDeleteAll},
		{"DELETE FROM orders;", sqlDeleteAll},
		{"delete from t where 1=1", sqlDeleteAll},
		{"DELETE FROM t WHERE true RETURNING *", sqlDeleteAll},
		{"DELETE FROM t WHERE (1 = 1)", sqlDeleteAll},
		{"DELETE FROM t LIMIT 10", sqlDeleteAll},
		{"DELETE t FROM t JOIN u ON t.id = u.id", sqlDeleteAll},
		{"DELETE FROM t USING (SELECT id FROM u WHERE x) s", sqlDeleteAll},
		{"UPDATE users SET role = 'admin'", sqlUpdateAll},
		{"UPDATE users SET a = (SELECT b FROM c WHERE c.id = 1)", sqlUpdateAll},
		{"WITH x AS (SELECT 1) DELETE FROM t", sqlDeleteAll},
		{"WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone", sqlDeleteAll},
		{"EXPLAIN ANALYZE DELETE FROM t", sqlDeleteAll},
		{"EXPLAIN (ANALYZE, BUFFERS) DELETE FROM t", sqlDeleteAll},
		{"BEGIN; DELETE FROM t; COMMIT;", sqlDeleteAll},
		{"START TRANSACTION; UPDATE t SET a = 1; ROLLBACK;", sqlUpdateAll},
		{"DO $$ BEGIN DELETE FROM audit; END $$", sqlDeleteAll},
		{"CREATE FUNCTION f() RETURNS void AS $body$ TRUNCATE t; $body$ LANGUAGE sql", sqlTruncate},
		{"/*!40000 DROP DATABASE shop */", sqlDropDatabase},
		{"SELECT 1; /* gone */ DROP TABLE t", sqlDropTable},
		{"\\dt\nDROP TABLE t;", sqlDropTable},
		{"\\x \\\\ DROP TABLE t", sqlDropTable},
		{".tables\nDROP TABLE django_migrations;", sqlDropTable},
		{"ALTER TABLE users DROP COLUMN email", sqlAlterDrop},
		{"ALTER TABLE users DROP email", sqlAlterDrop},
		{"ALTER TABLE t ADD x int, DROP COLUMN IF EXISTS y", sqlAlterDrop},
		{"ALTER TABLE hits DROP PARTITION 202401", sqlAlterDrop},
		{"ALTER TABLE hits DELETE WHERE 1", sqlDeleteAll},
		{"ALTER TABLE hits UPDATE x = 0 WHERE true", sqlUpdateAll},
		{"GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC", sqlGrantPublic},
		{"IF x THEN DELETE FROM t; END IF;", sqlDeleteAll},
		{"E'it''s' ; DROP TABLE t", sqlDropTable},
		{"SELECT 1; DROP DATABASE a; DELETE FROM b", sqlDropDatabase | sqlDeleteAll},

		{"SELECT count(*) FROM users", 0},
		{"SELECT 'DROP TABLE ' || tablename FROM pg_tables", 0},
		{"SELECT \"DROP TABLE x\" FROM t", 0},
		{"-- DROP TABLE users\nSELECT 1", 0},
		{"/* DROP DATABASE a */ SELECT 1", 0},
		{"COMMENT ON TABLE users IS 'drop this table after the migration'", 0},
		{"SELECT * FROM audit WHERE action = 'DROP TABLE'", 0},
		{"DELETE FROM sessions WHERE expires_at < now()", 0},
		{"UPDATE users SET verified = true WHERE id = 42", 0},
		{"DELETE FROM t WHERE id IN (SELECT id FROM u)", 0},
		{"DELETE FROM t WHERE 1 = 2", 0},
		{"DELETE FROM t WHERE id = 1", 0},
		{"EXPLAIN DELETE FROM t", 0},
		{"EXPLAIN (COSTS OFF) UPDATE t SET a = 1", 0},
		{"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2", 0},
		{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", 0},
		{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a", 0},
		{"CREATE TABLE t (a int REFERENCES b ON DELETE CASCADE)", 0},
		{"CREATE TRIGGER x AFTER DELETE ON t FOR EACH ROW EXECUTE FUNCTION f()", 0},
		{"GRANT DELETE, UPDATE, TRUNCATE ON t TO app", 0},
		{"GRANT DROP ON db.* TO app", 0},
		{"GRANT ALL ON DATABASE app TO owner", 0},
		{"GRANT SELECT ON t TO PUBLIC", 0},
		{"SELECT TRUNCATE(price, 2) FROM items", 0},
		{"DROP VIEW v", 0},
		{"DROP INDEX idx", 0},
		{"DROP TEMPORARY TABLE tmp", 0},
		{"DROP TABLE #staging", 0},
		{"ALTER TABLE t DROP CONSTRAINT fk", 0},
		{"ALTER TABLE t ALTER COLUMN c DROP DEFAULT", 0},
		{"ALTER TABLE t ALTER COLUMN c DROP NOT NULL", 0},
		{"ALTER TABLE t DROP INDEX idx, DROP FOREIGN KEY fk", 0},
		{"ALTER TABLE t DROP PRIMARY KEY", 0},
		{"ALTER TABLE hits DELETE WHERE date < '2020-01-01'", 0},
		{"$$ not closed DROP TABLE x", sqlDropTable}, // an unclosed body is still read as code
		{"", 0},
	} {
		if got := scanSQL(c.sql); got != c.want {
			t.Errorf("scanSQL(%q) = %b, want %b", c.sql, got, c.want)
		}
	}
}

func TestScanMongo(t *testing.T) {
	for _, c := range []struct {
		js   string
		want sqlFinding
	}{
		{"db.dropDatabase()", sqlDropDatabase},
		{`db.getSiblingDB("app").dropDatabase()`, sqlDropDatabase},
		{"db.runCommand({dropDatabase: 1})", sqlDropDatabase},
		{"db.users.drop()", sqlDropTable},
		{`db.getCollection("x").drop()`, sqlDropTable},
		{`db.runCommand({ drop: "users" })`, sqlDropTable},
		{"db.orders.deleteMany({})", sqlDeleteAll},
		{"db.orders.deleteMany( { } )", sqlDeleteAll},
		{"db.orders.deleteMany()", sqlDeleteAll},
		{"db.orders.remove({})", sqlDeleteAll},
		{"db.orders.deleteMany({}, {writeConcern: {w: 1}})", sqlDeleteAll},
		{`db.users.updateMany({}, {$set: {role: "admin"}})`, sqlUpdateAll},

		{`db.orders.deleteMany({status: "test"})`, 0},
		{"db.orders.remove({_id: 1})", 0},
		{"db.users.find({})", 0},
		{`print("db.dropDatabase()")`, 0},
		{"// db.dropDatabase()\ndb.stats()", 0},
		{"/* db.users.drop() */ db.stats()", 0},
		{"db.users.updateMany({a: 1}, {$set: {b: 2}})", 0},
		{"", 0},
	} {
		if got := scanMongo(c.js); got != c.want {
			t.Errorf("scanMongo(%q) = %b, want %b", c.js, got, c.want)
		}
	}
}

func TestProdWord(t *testing.T) {
	for s, want := range map[string]bool{
		"prod": true, "prod-db.internal": true, "app_production": true, "postgres://u@db.prd.example.com/app": true,
		"--context=prod2": true, "$PROD_DATABASE_URL": true, "PRODUCTION": true, "prod.tfvars": true,
		"products": false, "preprod": false, "nonprod": false, "reproduce": false, "prodigy": false, "staging": false, "": false,
	} {
		if got := prodWord(s); got != want {
			t.Errorf("prodWord(%q) = %v, want %v", s, got, want)
		}
	}
}

// The SQL a client is given, however it is given, reaches the scanner.
func TestDatabaseClientsSQLSources(t *testing.T) {
	checkHits(t, []ruleHit{
		{"psql -c 'DROP TABLE t' app", "db_sql_drop_table", true},
		{"psql --command='DROP TABLE t' app", "db_sql_drop_table", true},
		{"psql app -c 'SELECT 1' -c 'DROP TABLE t'", "db_sql_drop_table", true},
		{"psql -f - app <<< 'DROP TABLE t'", "db_sql_drop_table", true},
		{"echo 'DROP TABLE t;' | psql app", "db_sql_drop_table", true},
		{"printf 'DROP TABLE t;' | psql app", "db_sql_drop_table", true},
		{"psql -f drop.sql app <<< 'DROP TABLE t'", "db_sql_drop_table", false},
		{"psql -c 'SELECT 1' app <<< 'DROP TABLE t'", "db_sql_drop_table", false},
		{"mysql app < <(echo 'DROP TABLE t;')", "db_sql_drop_table", true},
		{"mysql -e'DROP TABLE t' app", "db_sql_drop_table", true},
		{"mysql --execute='DROP TABLE t' app", "db_sql_drop_table", true},
		{"mysql -pSecret -uroot app -e 'DROP TABLE t'", "db_sql_drop_table", true},
		{"sqlite3 app.db 'SELECT 1' 'DROP TABLE t'", "db_sql_drop_table", true},
		{"sqlite3 -cmd 'DROP TABLE t' app.db", "db_sql_drop_table", true},
		{"sqlite3 -readonly app.db 'SELECT 1'", "db_sql_drop_table", false},
		{"duckdb -c 'DROP TABLE t'", "db_sql_drop_table", true},
		{"sqlcmd -S srv -Q 'DROP TABLE t'", "db_sql_drop_table", true},
		{"clickhouse client --query 'DROP TABLE t'", "db_sql_drop_table", true},
		{"clickhouse local --query 'DROP TABLE t'", "db_sql_drop_table", true},
		{"clickhouse server --query 'DROP TABLE t'", "db_sql_drop_table", false},
		{"cockroach sql -e 'DROP TABLE t'", "db_sql_drop_table", true},
		{"cockroach start --execute 'DROP TABLE t'", "db_sql_drop_table", false},
		{"bq query 'DROP TABLE d.t'", "db_sql_drop_table", true},
		{"bq ls 'DROP TABLE d.t'", "db_sql_drop_table", false},
		{"snow sql -q 'DROP TABLE t'", "db_sql_drop_table", true},
		{"dolt sql -q 'DROP TABLE t'", "db_sql_drop_table", true},
		{"trino --execute 'DROP TABLE t'", "db_sql_drop_table", true},
		{"impala-shell -q 'DROP TABLE t'", "db_sql_drop_table", true},
		{"turso db shell mydb 'DROP TABLE t'", "db_sql_drop_table", true},
		{"wrangler d1 execute db --command 'DROP TABLE t'", "db_sql_drop_table", true},
		{"heroku pg:psql -a app -c 'DROP TABLE t'", "db_sql_drop_table", true},
		{"kubectl exec db-0 -- psql -c 'DROP TABLE t'", "db_sql_drop_table", true},
		{"docker compose exec db mysql -e 'DROP TABLE t' app", "db_sql_drop_table", true},
		{"psql --help", "db_sql_drop_table", false},
		{"mongosh --eval 'db.t.drop()'", "db_mongo_drop", true},
		{"mongosh app <<< 'db.t.drop()'", "db_mongo_drop", true},
		{"mongosh app drop.js", "db_mongo_drop", false},
		{"psql -c '\\! rm -rf ~' app", "rm_rf_home", true},
		{"sqlite3 app.db '.shell rm -rf ~'", "rm_rf_home", true},
	})
}

// TODO(lead): enable once shellparse's Invocation.Stdin (branch h-parse)
// is merged and staticStdin reads it: heredoc bodies are what a client
// reads on its standard input.
func TestDatabaseHeredocSQL(t *testing.T) {
	d := Default()
	wantAtLeast(t, d, High,
		"psql app <<'SQL'\nBEGIN;\nDROP TABLE IF EXISTS customers CASCADE;\nCOMMIT;\nSQL",
		"mysql -h db -u admin <<EOF\nDROP DATABASE IF EXISTS crm;\nEOF",
		"sqlite3 db.sqlite3 <<'EOF'\n.tables\nDROP TABLE django_migrations;\nEOF",
		"mariadb shop <<'SQL'\nDELETE FROM customers;\nSQL",
		"redis-cli <<EOF\nSELECT 2\nFLUSHDB\nEOF",
		"mongosh app <<'JS'\ndb.dropDatabase()\nJS",
	)
	wantNothing(t, d,
		"psql app <<'SQL'\nSELECT relname FROM pg_stat_user_tables;\nSQL",
		"mysql app <<'SQL'\nSELECT 'DROP TABLE x';\nSQL",
	)
}

// The scanner is bounded and never panics on hostile text.
func FuzzScanSQL(f *testing.F) {
	for _, s := range []string{"DROP TABLE t", "DELETE FROM t WHERE 1=1", "DO $$ BEGIN DELETE FROM t; END $$", "/*!40000 DROP DATABASE a */",
		"E'\\'' ; TRUNCATE t", "$a$ $b$ DROP TABLE t $b$ $a$", "\\x \\\\ DROP TABLE t", "db.x.deleteMany({})", "((((", "'", "\"", "`", "[", "--", "/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := scanSQL(s)
		if b := scanSQL(s); a != b {
			t.Fatalf("non-deterministic: %b then %b", a, b)
		}
		_ = scanMongo(s)
		// Text in a line comment is never a statement.
		if !strings.ContainsAny(s, "\n\r") && scanSQL("-- "+s) != 0 {
			t.Fatalf("a comment found something: %q", s)
		}
	})
}
