# shellguard: check every interactive command line before bash runs it.
# Load it from ~/.bashrc with:  eval "$(shellguard init bash)"
# A flagged line prints its warnings and asks "Proceed? [y/N]"; any key but
# y (or Y) keeps it from running (it stays in the history for editing).
# SHELLGUARD_BIN overrides the shellguard binary used for the checks.
__shellguard_default_bin=@SHELLGUARD_BIN@

# __shellguard_confirm LINE [LEAD]: status 0 when LINE may run. It runs
# `shellguard check -- LINE` (0 = nothing flagged, 1 = warnings on stdout,
# anything else = the line could not be checked) and, unless it is 0,
# prints LEAD (as is), the warnings and asks; the answer is one key read
# from standard input.
__shellguard_confirm() {
  local line=$1 out rc ans
  [[ -z ${line//[[:space:]]/} ]] && return 0
  out=$(command "${SHELLGUARD_BIN:-$__shellguard_default_bin}" check -- "$line" 2>&1)
  rc=$?
  (( rc == 0 )) && return 0
  printf '%s' "${2-}"
  [[ -n $out ]] && printf '%s\n' "$out"
  (( rc != 1 )) && printf 'shellguard: could not check this line (exit %d)\n' "$rc"
  ans=
  printf 'Proceed? [y/N] '
  read -r -s -n 1 ans
  printf '%s\n' "$ans"
  [[ $ans == [yY] ]] && return 0
  printf 'shellguard: not run\n'
  return 1
}

# __shellguard_readline runs on Enter before accept-line (see the bindings
# below): it checks READLINE_LINE and empties it when the answer is no.
__shellguard_readline() {
  local line=$READLINE_LINE lead
  # Bash erases the prompt line before a bind -x function runs; show it
  # again above the warnings (clean lines print nothing).
  lead=${PS1@P}
  lead=${lead//[$'\001\002']/}${line}$'\n'
  __shellguard_confirm "$line" "$lead" && return 0
  history -s -- "$line"
  READLINE_LINE=
  READLINE_POINT=0
}

if [[ $- == *i* ]] && [[ -z ${__shellguard_bound-} ]]; then
  __shellguard_bound=1
  # Enter (C-m, C-j) types two private key sequences: the first runs the
  # check, the second accepts the (possibly emptied) line.
  for __shellguard_map in emacs vi-insert vi-command; do
    bind -m "$__shellguard_map" -x '"\C-x\C-]c": __shellguard_readline' 2>/dev/null
    bind -m "$__shellguard_map" '"\C-x\C-]a": accept-line' 2>/dev/null
    bind -m "$__shellguard_map" '"\C-m": "\C-x\C-]c\C-x\C-]a"' 2>/dev/null
    bind -m "$__shellguard_map" '"\C-j": "\C-x\C-]c\C-x\C-]a"' 2>/dev/null
  done
  unset __shellguard_map
fi
