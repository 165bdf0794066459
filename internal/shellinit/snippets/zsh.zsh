# shellguard: check every interactive command line before zsh runs it.
# Load it from ~/.zshrc with:  eval "$(shellguard init zsh)"
# A flagged line prints its warnings and asks "Proceed? [y/N]"; any key but
# y (or Y) keeps it from running (it stays in the history for editing).
# SHELLGUARD_BIN overrides the shellguard binary used for the checks.
typeset -g __shellguard_default_bin=@SHELLGUARD_BIN@

# __shellguard_confirm LINE [LEAD]: status 0 when LINE may run. It runs
# `shellguard check -- LINE` (0 = nothing flagged, 1 = warnings on stdout,
# anything else = the line could not be checked) and, unless it is 0,
# prints LEAD (as is), the warnings and asks; the answer is one key read
# from standard input.
__shellguard_confirm() {
  emulate -L zsh
  local line=$1 out rc ans
  [[ -z ${line//[[:space:]]/} ]] && return 0
  out=$(command "${SHELLGUARD_BIN:-$__shellguard_default_bin}" check -- "$line" 2>&1)
  rc=$?
  (( rc == 0 )) && return 0
  print -rn -- "${2-}"
  [[ -n $out ]] && print -r -- "$out"
  (( rc != 1 )) && print -r -- "shellguard: could not check this line (exit $rc)"
  print -n -- 'Proceed? [y/N] '
  ans=n
  read -q ans
  print -r -- "$ans"
  [[ $ans == [yY] ]] && return 0
  print -r -- 'shellguard: not run'
  return 1
}

# __shellguard_accept_line wraps accept-line: it checks $BUFFER first and,
# when the answer is no, drops the line (keeping it in the history).
__shellguard_accept_line() {
  emulate -L zsh
  local line=$BUFFER
  # Write below the edited line, which stays on screen.
  CURSOR=$#BUFFER
  zle -R
  if ! __shellguard_confirm "$line" $'\n'; then
    print -s -r -- "$line"
    BUFFER=
    zle send-break
    return 0
  fi
  zle __shellguard_orig_accept_line -- "$@"
}

if [[ -o interactive ]] && (( ! ${+__shellguard_bound} )); then
  typeset -g __shellguard_bound=1
  zle -A accept-line __shellguard_orig_accept_line
  zle -N accept-line __shellguard_accept_line
fi
