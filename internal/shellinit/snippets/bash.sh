# shellguard: decide every interactive command line before bash runs it.
# Load it from ~/.bashrc with:  eval "$(shellguard init bash)"
# (after your own key bindings). Each line goes to `shellguard decide`:
# allow runs it, deny refuses it with the reason, ask prints why and asks
# "Proceed? [y/N]" (keys typed before the question appears are dropped);
# a refused line stays in the history for editing. shellguard_status says
# whether every key that runs a line goes through the check.
# SHELLGUARD_BIN overrides the shellguard binary used for the decisions.
__shellguard_default_bin=@SHELLGUARD_BIN@
# Seconds without a key before "Proceed? [y/N]" is asked (type-ahead and
# pastes are dropped until then), and seconds no key may follow the y.
__shellguard_settle=0.5
__shellguard_quiet=0.1

# __shellguard_drain SECONDS: when standard input is a terminal, drop what
# is typed until no key has come for SECONDS.
__shellguard_drain() {
  local junk
  [[ -t 0 ]] || return 0
  while IFS= read -r -s -d '' -n 4096 -t "$1" junk || [[ -n $junk ]]; do :; done
}

# __shellguard_confirm LINE [LEAD]: status 0 when LINE may run. It runs
# `shellguard decide --cwd $PWD - <<<LINE`: 0 (allow) runs it; 11 (deny)
# prints LEAD, the decision and "not run"; 10 (ask), and anything else (the
# line could not be decided: fail closed), print them and ask for one key.
__shellguard_confirm() {
  local line=$1 out rc ans extra
  [[ -z ${line//[[:space:]]/} ]] && return 0
  [[ $line == shellguard_status ]] && return 0
  out=$(command "${SHELLGUARD_BIN:-$__shellguard_default_bin}" decide --cwd "$PWD" - 2>&1 <<<"$line")
  rc=$?
  (( rc == 0 )) && return 0
  printf '%s' "${2-}"
  [[ -n $out ]] && printf '%s\n' "$out"
  if (( rc == 11 )); then
    printf 'shellguard: not run (denied)\n'
    return 1
  fi
  (( rc != 10 )) && printf 'shellguard: could not decide on this line (exit %d); nothing vouches for it\n' "$rc"
  __shellguard_drain "$__shellguard_settle"
  printf 'Proceed? [y/N] '
  ans=
  IFS= read -r -s -n 1 ans
  printf '%s\n' "$ans"
  if [[ $ans == [yY] ]]; then
    # A y followed at once by more keys was typed or pasted with them.
    if [[ -t 0 ]] && IFS= read -r -s -n 1 -t "$__shellguard_quiet" extra; then
      __shellguard_drain "$__shellguard_settle"
      printf 'shellguard: not run (more keys came with the y: a paste?)\n'
      return 1
    fi
    return 0
  fi
  printf 'shellguard: not run\n'
  return 1
}

# __shellguard_readline runs before the line is accepted (see the bindings
# below): it checks READLINE_LINE and empties it when the answer is no.
__shellguard_readline() {
  local line=$READLINE_LINE lead
  case $line in *bind*|*source*|.\ *|*inputrc*) __shellguard_recheck=1 ;; esac
  # Bash erases the prompt line before a bind -x function runs; show it
  # again above the warnings (allowed lines print nothing).
  lead=${PS1@P}
  lead=${lead//[$'\001\002']/}${line}$'\n'
  __shellguard_confirm "$line" "$lead" && return 0
  history -s -- "$line"
  READLINE_LINE=
  READLINE_POINT=0
}

# __shellguard_edit EDITOR: what edit-and-execute-command does, but the
# edited text goes back into READLINE_LINE, to be checked and accepted by
# the rest of the binding. EDITOR is the default after $VISUAL and
# $EDITOR. An editor that fails leaves nothing to run.
__shellguard_edit() {
  local f ed=${VISUAL:-${EDITOR:-$1}}
  f=$(command mktemp "${TMPDIR:-/tmp}/bash-fc.XXXXXXXX") || return
  printf '%s\n' "$READLINE_LINE" >"$f"
  if eval "$ed \"\$f\""; then
    READLINE_LINE=$(<"$f")
  else
    printf 'shellguard: the editor failed: not run\n'
    history -s -- "$READLINE_LINE"
    READLINE_LINE=
  fi
  READLINE_POINT=${#READLINE_LINE}
  command rm -f -- "$f"
}

# __shellguard_comment: what insert-comment does without an argument:
# comment-begin goes in front of the line, which is then checked and
# accepted by the rest of the binding.
__shellguard_comment() {
  local b
  b=$(bind -v 2>/dev/null)
  b=${b#*set comment-begin }
  [[ $b == *$'\n'* ]] && b=${b%%$'\n'*}
  READLINE_LINE=${b:-#}$READLINE_LINE
  READLINE_POINT=0
}

# The readline commands that run the line, and what each key bound to one
# of them types instead: private key sequences (\C-x\C-] then a letter)
# that run the check (c) and then the command itself.
declare -gA __shellguard_macro=(
  [accept-line]='\C-x\C-]c\C-x\C-]a'
  [operate-and-get-next]='\C-x\C-]c\C-x\C-]o'
  [edit-and-execute-command]='\C-x\C-]e\C-x\C-]c\C-x\C-]a'
  [vi-edit-and-execute-command]='\C-x\C-]v\C-x\C-]c\C-x\C-]a'
  [insert-comment]='\C-x\C-]#\C-x\C-]c\C-x\C-]a'
)

# __shellguard_unguarded sets __shellguard_found to the keys, in the emacs
# and vi keymaps, bound directly to a command that runs the line, as
# "KEYMAP<tab>KEYSEQ<tab>FUNCTION" (one subshell for the three keymaps).
__shellguard_unguarded() {
  local - l map=emacs re='^("(.*)"): ([a-z-]+)$' IFS=$'\n'
  local -a lines
  set -f
  lines=($({ bind -m emacs -p; echo @vi-insert; bind -m vi-insert -p; echo @vi-command; bind -m vi-command -p; } 2>/dev/null))
  __shellguard_found=()
  for l in "${lines[@]}"; do
    case $l in
      @*) map=${l#@}; continue ;;
      *'": accept-line' | *'": operate-and-get-next' | *'": edit-and-execute-command' | \
        *'": vi-edit-and-execute-command' | *'": insert-comment') ;;
      *) continue ;;
    esac
    [[ $l =~ $re ]] || continue
    [[ ${BASH_REMATCH[2]} == '\C-x\C-]'? ]] && continue
    __shellguard_found+=("$map"$'\t'"${BASH_REMATCH[1]}"$'\t'"${BASH_REMATCH[3]}")
  done
}

# __shellguard_bind binds, in the emacs and vi keymaps, Enter and every
# key that runs the line to the check followed by the command.
__shellguard_bind() {
  local map k fn f
  for map in emacs vi-insert vi-command; do
    bind -m "$map" -x '"\C-x\C-]c": __shellguard_readline' 2>/dev/null
    bind -m "$map" -x '"\C-x\C-]e": __shellguard_edit emacs' 2>/dev/null
    bind -m "$map" -x '"\C-x\C-]v": __shellguard_edit vi' 2>/dev/null
    bind -m "$map" -x '"\C-x\C-]#": __shellguard_comment' 2>/dev/null
    bind -m "$map" '"\C-x\C-]a": accept-line' 2>/dev/null
    bind -m "$map" '"\C-x\C-]o": operate-and-get-next' 2>/dev/null
    bind -m "$map" '"\C-m": "\C-x\C-]c\C-x\C-]a"' 2>/dev/null
    bind -m "$map" '"\C-j": "\C-x\C-]c\C-x\C-]a"' 2>/dev/null
  done
  __shellguard_unguarded
  for f in "${__shellguard_found[@]}"; do
    IFS=$'\t' read -r map k fn <<<"$f"
    bind -m "$map" "$k: \"${__shellguard_macro[$fn]}\"" 2>/dev/null
  done
}

# shellguard_status says whether the guard is in effect: the binary it
# runs, and any key that runs a line without the check (a binding made
# after the snippet, such as bind '"\C-m": accept-line'). Status 1 when
# something is wrong.
shellguard_status() {
  local bin=${SHELLGUARD_BIN:-$__shellguard_default_bin} map k fn f bad=0
  if [[ ! -x $bin ]]; then
    printf 'shellguard: %s is not an executable file: every line will ask\n' "$bin"
    bad=1
  fi
  if [[ ! -o emacs && ! -o vi ]]; then
    printf 'shellguard: NOT IN EFFECT: line editing is off (set -o emacs or set -o vi turns it on), so lines are not checked\n'
    bad=1
  fi
  __shellguard_unguarded
  for f in "${__shellguard_found[@]}"; do
    IFS=$'\t' read -r map k fn <<<"$f"
    printf 'shellguard: NOT IN EFFECT for %s (keymap %s): it runs %s without the check\n' "$k" "$map" "$fn"
    bad=1
  done
  if (( bad )); then
    printf 'shellguard: load the snippet again after your own bindings: eval "$(%s init bash)"\n' "$bin"
    return 1
  fi
  [[ ${1-} == -q ]] || printf 'shellguard: in effect: every key that runs a line is checked by %s\n' "$bin"
  return 0
}

# Before a prompt: after start-up (the rest of ~/.bashrc has run) and
# after a line that may have changed the bindings, say if the guard is
# not in effect.
__shellguard_precmd() {
  local rc=$?
  if [[ -n ${__shellguard_recheck-} ]]; then
    unset __shellguard_recheck
    shellguard_status -q >&2
  fi
  return "$rc"
}

if [[ $- == *i* ]]; then
  __shellguard_bind
  __shellguard_recheck=1
  if [[ ${PROMPT_COMMAND@a} == *a* ]]; then
    [[ " ${PROMPT_COMMAND[*]} " == *" __shellguard_precmd "* ]] || PROMPT_COMMAND+=(__shellguard_precmd)
  elif [[ ${PROMPT_COMMAND-} != *__shellguard_precmd* ]]; then
    PROMPT_COMMAND="__shellguard_precmd${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}"
  fi
fi
