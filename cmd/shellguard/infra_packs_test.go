package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestInfraPacksBinary (issue 13): the database, kubernetes, iac,
// containers and fleet packs through the real binary: each mechanism's
// hits at their level, the nearest harmless forms unflagged, production
// targets denied, and a pack turned off by the user's configuration.
func TestInfraPacksBinary(t *testing.T) {
	lines := []lineWant{
		// SQL by option, here-string, pipe and -f -; quotes understood.
		{"psql -c 'DROP TABLE users' app", "db_sql_drop_table", "high"},
		{"psql -f - app <<< 'TRUNCATE events;'", "db_sql_truncate", "high"},
		{"echo 'DELETE FROM orders;' | mysql shop", "db_sql_delete_all", "high"},
		{"sqlite3 app.db 'UPDATE users SET admin = 1'", "db_sql_delete_all", "high"},
		{"psql -c \"SELECT 'DROP TABLE ' || tablename FROM pg_tables\" app", "", ""},
		{"psql -c 'DELETE FROM sessions WHERE expires_at < now()' app", "", ""},
		{"redis-cli -n 2 FLUSHDB", "db_redis_flush", "high"},
		{"echo FLUSHALL | redis-cli", "db_redis_flush_stdin", "high"},
		{"mongosh app --eval 'db.orders.deleteMany({})'", "db_mongo_delete_all", "high"},
		{"npx prisma migrate reset --force", "db_prisma_reset", "high"},
		{"npx prisma generate", "", ""},
		{"psql -h prod-db.internal -c 'DROP DATABASE app'", "db_production_destroy", "critical"},
		{"RAILS_ENV=production bundle exec rails db:reset", "db_production_destroy", "critical"},
		// Kubernetes.
		{"kubectl delete ns payments", "k8s_delete_namespace", "high"},
		{"kubectl delete ns payments --dry-run=server", "", ""},
		{"kubectl -n data delete statefulsets --all", "k8s_delete_all", "high"},
		{"helm del redis -n cache", "k8s_helm_uninstall", "high"},
		{"kubectl get pods -A", "", ""},
		{"kubectl delete namespace production", "k8s_production_destroy", "critical"},
		// IaC.
		{"terraform destroy -auto-approve", "iac_terraform_destroy", "high"},
		{"terraform plan -destroy", "", ""},
		{"pulumi down --yes", "iac_pulumi_destroy", "high"},
		{"terraform apply -auto-approve", "iac_apply_auto_approve", "medium"},
		{"terraform destroy -auto-approve -var-file=prod.tfvars", "iac_production_destroy", "critical"},
		// Containers, through the mounts.
		{"docker run -v /:/host alpine rm -rf /host", "rm_rf_root", "critical"},
		{"docker run --rm -v \"$HOME\":/h busybox sh -c 'rm -rf /h/*'", "rm_rf_home", "critical"},
		{"docker system prune -af --volumes", "container_volume_delete", "high"},
		{"docker compose down -v", "container_compose_down_volumes", "high"},
		{"docker compose down", "", ""},
		{"docker run --rm -v \"$PWD\":/app -w /app node:20 npm test", "", ""},
		// Fleets.
		{"ansible all -m shell -a 'rm -rf /srv/cache'", "fleet_fanout_destructive", "high"},
		{"salt '*' cmd.run 'sudo reboot'", "fleet_fanout_power", "high"},
		{"for h in $(cat hosts); do ssh \"$h\" 'rm -rf /srv/cache'; done", "fleet_fanout_destructive", "high"},
		{"ansible all -m ping", "", ""},
	}
	checkLines(t, lines)

	// A production drop is denied; the database pack off turns it all off.
	home, proj := t.TempDir(), t.TempDir()
	if _, code := runIn(t, home, proj, "decide", "--", "psql -h prod-db.internal -c 'DROP DATABASE app'"); code != exitDeny {
		t.Errorf("production drop: decide exit %d, want deny", code)
	}
	cfgDir := filepath.Join(home, ".config", "shellguard")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte("[packs]\ndisable = [\"database\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := runIn(t, home, proj, "check", "--", "psql -c 'DROP TABLE users' app"); code != 0 {
		t.Errorf("database pack off: check exit %d\n%s", code, out)
	}
	if out, code := runIn(t, home, proj, "check", "--", "kubectl delete ns payments"); code != 1 {
		t.Errorf("kubernetes pack still on: check exit %d\n%s", code, out)
	}
}
