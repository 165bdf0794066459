package approval

// arity returns how many meaningful tokens (the program plus its
// subcommands) make up the approval prefix of a command whose leading
// non-flag tokens, joined by single spaces, are key. It returns 0 when key
// is not in the table. The longest key found in the table wins (see
// prefixTokens).
//
// The table holds every entry of opencode's BashArity table (including its
// rtk rows) and of the gaunt-sloth seed's ARITY table, plus a few additions
// marked below. It is a switch rather than a map held in a variable so that
// nothing at package level can be changed.
func arity(key string) int {
	switch key {
	// Single-token utilities: the program alone.
	case "cat", "cd", "chmod", "chown", "cp", "echo", "env", "export", "grep",
		"kill", "killall", "ln", "ls", "mkdir", "mv", "ps", "pwd", "rm", "rmdir",
		"sleep", "source", "tail", "touch", "unset", "which",
		// seed additions
		"head", "find":
		return 1

	// Program plus one subcommand.
	case "bazel", "brew", "bun", "cargo", "cdk", "cf", "cmake", "composer",
		"consul", "crictl", "deno", "docker", "eksctl", "firebase", "flyctl",
		"git", "go", "gradle", "helm", "heroku", "hugo", "ip", "kind", "kubectl",
		"kustomize", "make", "mc", "minikube", "mongosh", "mysql", "mvn", "ng",
		"npm", "nvm", "nx", "openssl", "pip", "pipenv", "pnpm", "poetry",
		"podman", "psql", "pulumi", "pyenv", "python", "rake", "rbenv",
		"redis-cli", "rtk", "rustup", "serverless", "skaffold", "sls", "sst",
		"swift", "systemctl", "terraform", "tmux", "turbo", "ufw", "vault",
		"vercel", "volta", "wp", "yarn",
		// seed additions
		"npx", "python3",
		// shellguard additions: the script or module an interpreter runs
		// is part of what was approved (node a.js does not approve
		// node b.js), and package managers' subcommands.
		"python2", "pypy", "pypy3", "node", "ruby", "perl", "php", "bash",
		"sh", "zsh", "dash", "ksh", "fish", "lua", "Rscript", "pip3", "uv",
		"pipx", "gem", "bundle", "apt", "apt-get", "dnf", "yum", "pacman",
		"zypper", "apk", "snap", "flatpak", "dotnet", "just", "task", "jest",
		"bunx", "corepack", "nix":
		return 2

	case "aws", "az", "bun run", "bun x", "cargo add", "cargo run", "consul kv",
		"deno task", "doctl", "docker builder", "docker compose",
		"docker container", "docker image", "docker network", "docker volume",
		"eksctl create", "gcloud", "gh", "git config", "git remote", "git stash",
		"ip addr", "ip link", "ip netns", "ip route", "kind create",
		"kubectl kustomize", "kubectl rollout", "mc admin", "npm exec",
		"npm init", "npm run", "npm view", "openssl req", "openssl x509",
		"pnpm dlx", "pnpm exec", "pnpm run", "podman container", "podman image",
		"pulumi stack", "rtk aws", "rtk cargo", "rtk docker", "rtk dotnet",
		"rtk gh", "rtk git", "rtk glab", "rtk go", "rtk gt", "rtk hook",
		"rtk kubectl", "rtk npm", "rtk npx", "rtk pip", "rtk pnpm", "rtk prisma",
		"rtk telemetry", "sfdx", "terraform workspace", "vault auth", "vault kv",
		"yarn dlx", "yarn run",
		// shellguard additions: subcommands whose own subcommand
		// changes what happens.
		"git bisect", "git submodule", "git worktree", "git lfs", "git notes",
		"git reflog", "git sparse-checkout", "go mod", "go tool", "cargo install",
		"uv run", "uv pip", "poetry run", "pipenv run", "bundle exec",
		"dotnet run", "dotnet tool", "docker buildx", "docker system",
		"docker context", "podman network", "podman volume", "kubectl config",
		"kubectl auth", "helm repo", "npm cache", "npm config", "pnpm config",
		"yarn config", "yarn workspace", "pip cache", "pip config",
		"pip3 config":
		return 3

	case "rtk docker compose", "rtk prisma migrate":
		return 4
	}
	return 0
}

// valueOption reports whether, for a command whose meaningful tokens so far
// are key, the option opt (written without "=value") takes its value from
// the next word. It is used only to keep option values out of the prefix
// (git -C dir checkout main classifies as "git checkout"); an option not
// listed here leaves its value among the tokens, which makes the prefix
// more specific, never less.
func valueOption(key, opt string) bool {
	switch key {
	case "git":
		switch opt {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace",
			"--config-env", "--super-prefix", "--exec-path", "--list-cmds":
			return true
		}
	case "docker", "podman":
		switch opt {
		case "-H", "--host", "-c", "--context", "--config", "-l",
			"--log-level", "--tlscacert", "--tlscert", "--tlskey", "--url",
			"--connection", "--root", "--runroot":
			return true
		}
	case "docker compose":
		switch opt {
		case "-f", "--file", "-p", "--project-name", "--project-directory",
			"--env-file", "--profile", "--ansi", "--progress", "--parallel":
			return true
		}
	case "kubectl", "helm":
		switch opt {
		case "-n", "--namespace", "--context", "--kube-context", "--kubeconfig",
			"-s", "--server", "--cluster", "--user", "--as", "--as-group",
			"--token", "--request-timeout":
			return true
		}
	case "npm", "npx":
		switch opt {
		case "--prefix", "-w", "--workspace", "--loglevel", "--registry",
			"--userconfig", "--cache":
			return true
		}
	case "pnpm":
		switch opt {
		case "-C", "--dir", "-F", "--filter", "-w", "--workspace-root",
			"--loglevel", "--reporter":
			return true
		}
	case "yarn":
		switch opt {
		case "--cwd", "--modules-folder", "--cache-folder":
			return true
		}
	case "cargo":
		switch opt {
		case "--config", "-Z", "--color", "--manifest-path", "-C":
			return true
		}
	case "go", "make", "just":
		switch opt {
		case "-C", "-f", "--file", "--directory", "--makefile", "--justfile":
			return true
		}
	case "terraform", "tofu":
		// terraform's global options are written -chdir=DIR.
	case "aws":
		switch opt {
		case "--profile", "--region", "--output", "--endpoint-url",
			"--query", "--cli-input-json", "--ca-bundle":
			return true
		}
	case "gcloud":
		switch opt {
		case "--project", "--account", "--configuration", "--format",
			"--verbosity", "--impersonate-service-account":
			return true
		}
	case "az":
		switch opt {
		case "--subscription", "--output", "-o", "--query":
			return true
		}
	case "gh":
		switch opt {
		case "-R", "--repo", "--hostname":
			return true
		}
	case "python", "python2", "python3", "pypy", "pypy3":
		// -m is left among the tokens on purpose: the module is what
		// runs (python -m venv env classifies as "python venv").
		switch opt {
		case "-W", "-X", "--check-hash-based-pycs", "-c":
			return true
		}
	case "node":
		switch opt {
		case "-e", "--eval", "-p", "--print", "-r", "--require", "--import",
			"--loader", "--experimental-loader", "--env-file", "--input-type",
			"--conditions", "-C", "--title", "--max-old-space-size":
			return true
		}
	case "ruby":
		switch opt {
		case "-e", "-r", "-I", "-C", "-E", "--encoding":
			return true
		}
	case "perl":
		switch opt {
		case "-e", "-E", "-I", "-M", "-m":
			return true
		}
	case "php":
		switch opt {
		case "-r", "-d", "-c", "-f", "-B", "-R", "-F", "-E", "-S", "-t", "-z":
			return true
		}
	case "bash", "sh", "zsh", "dash", "ksh":
		switch opt {
		case "-c", "-o", "-O", "--rcfile", "--init-file":
			return true
		}
	case "systemctl":
		switch opt {
		case "-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal":
			return true
		}
	case "tmux":
		switch opt {
		case "-L", "-S", "-f", "-c", "-T":
			return true
		}
	case "mysql", "psql", "mongosh", "redis-cli":
		switch opt {
		case "-u", "-U", "-h", "--host", "--port", "--user", "--username":
			return true
		}
	}
	return false
}
