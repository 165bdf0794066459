# shellguard: decide every interactive command line before zsh runs it.
# Load it from ~/.zshrc with:  eval "$(shellguard init zsh)"
# (after your own key bindings and widgets). Each line goes to `shellguard
# decide`: allow runs it, deny refuses it with the reason, ask prints why
# and asks "Proceed? [y/N]" (keys typed before the question appears are
# dropped); a refused line stays in the history for editing.
# shellguard_status says whether every widget that runs a line goes
# through the check. SHELLGUARD_BIN overrides the shellguard binary.
typeset -g __shellguard_default_bin=@SHELLGUARD_BIN@
# Seconds without a key before "Proceed? [y/N]" is asked (type-ahead and
# pastes are dropped until then), and seconds no key may follow the y.
typeset -g __shellguard_settle=0.5 __shellguard_quiet=0.1
# The widgets that run the line; each is wrapped by name, which covers
# every key bound to it (Enter, C-j, C-o, ESC-a, ...).
typeset -ga __shellguard_widgets
__shellguard_widgets=(accept-line accept-and-hold accept-line-and-down-history accept-and-infer-next-history)

# __shellguard_drain SECONDS: drop what is typed until no key has come for
# SECONDS. (In a widget, read -k reads the keys through ZLE, its input
# queue included; standard input is not the terminal there.)
__shellguard_drain() {
  emulate -L zsh
  local junk
  while read -s -k 1 -t $1 junk; do :; done
}

# __shellguard_confirm LINE [LEAD]: status 0 when LINE may run. It runs
# `shellguard decide --cwd $PWD - <<<LINE`: 0 (allow) runs it; 11 (deny)
# prints LEAD, the decision and "not run"; 10 (ask), and anything else (the
# line could not be decided: fail closed), print them and ask for one key.
__shellguard_confirm() {
  emulate -L zsh
  local line=$1 out rc ans extra
  [[ -z ${line//[[:space:]]/} ]] && return 0
  [[ $line == shellguard_status ]] && return 0
  out=$(command "${SHELLGUARD_BIN:-$__shellguard_default_bin}" decide --cwd "$PWD" - 2>&1 <<<"$line")
  rc=$?
  (( rc == 0 )) && return 0
  print -rn -- "${2-}"
  [[ -n $out ]] && print -r -- "$out"
  if (( rc == 11 )); then
    print -r -- 'shellguard: not run (denied)'
    return 1
  fi
  (( rc != 10 )) && print -r -- "shellguard: could not decide on this line (exit $rc); nothing vouches for it"
  __shellguard_drain $__shellguard_settle
  print -n -- 'Proceed? [y/N] '
  ans=
  read -s -k 1 ans
  [[ $ans == $'\n' || $ans == $'\r' ]] && ans=
  print -r -- "$ans"
  if [[ $ans == [yY] ]]; then
    # A y followed at once by more keys was typed or pasted with them.
    if read -s -k 1 -t $__shellguard_quiet extra; then
      __shellguard_drain $__shellguard_settle
      print -r -- 'shellguard: not run (more keys came with the y: a paste?)'
      return 1
    fi
    return 0
  fi
  print -r -- 'shellguard: not run'
  return 1
}

# __shellguard_guard WIDGET [ARGS]: checks $BUFFER and, when the answer is
# no, drops the line (keeping it in the history); otherwise it runs the
# widget's previous definition. __shellguard_w_WIDGET, one per wrapped
# widget, call it (so that it works whatever name it is called by).
__shellguard_guard() {
  emulate -L zsh
  local w=$1 line=$BUFFER
  shift
  case $line in (*bindkey*|*zle*|*source*|.\ *) typeset -g __shellguard_recheck=1 ;; esac
  # Write below the edited line, which stays on screen.
  CURSOR=$#BUFFER
  zle -R
  if ! __shellguard_confirm "$line" $'\n'; then
    print -s -r -- "$line"
    BUFFER=
    zle send-break
    return 0
  fi
  typeset -g __shellguard_checked=1
  zle __shellguard_orig_$w -- "$@"
}

# shellguard_status says whether the guard is in effect: the binary it
# runs, the wrapped widgets, and keys bound straight to zsh's own widgets
# (.accept-line, ...), which nothing can wrap. Status 1 when something
# is wrong; -q prints problems only.
shellguard_status() {
  emulate -L zsh
  zmodload zsh/zleparameter 2>/dev/null
  local bin=${SHELLGUARD_BIN:-$__shellguard_default_bin} w m l bad=0
  local -a words
  if [[ ! -x $bin ]]; then
    print -r -- "shellguard: $bin is not an executable file: every line will ask"
    bad=1
  fi
  if [[ ! -o zle ]]; then
    print -r -- "shellguard: NOT IN EFFECT: ZLE is off in this shell, so lines are not checked"
    bad=1
  fi
  for w in $__shellguard_widgets; do
    case ${widgets[$w]-} in
      (user:__shellguard_w_$w) ;;
      (user:*)
        [[ $1 == -q ]] || print -r -- "shellguard: note: $w is now ${widgets[$w]#user:}, defined after the guard: lines it runs are checked only if it calls the widget it replaced (an unchecked line is reported when it runs)" ;;
      (*)
        print -r -- "shellguard: NOT IN EFFECT for the $w widget: it is zsh's own again and runs lines without the check"
        bad=1 ;;
    esac
  done
  for m in $keymaps; do
    # .safe is zsh's fallback keymap; main is another name of emacs or viins.
    [[ $m == .* || $m == main ]] && continue
    for l in ${(f)"$(bindkey -M $m -L 2>/dev/null)"}; do
      words=(${(z)l})
      w=$words[-1]
      (( ${__shellguard_widgets[(Ie)${w#.}]} )) && [[ $w == .* ]] || continue
      print -r -- "shellguard: NOT IN EFFECT for $words[-2] (keymap $m): it runs $w, zsh's own widget, without the check"
      bad=1
    done
  done
  if (( bad )); then
    print -r -- "shellguard: load the snippet again after your own bindings: eval \"\$($bin init zsh)\""
    return 1
  fi
  [[ $1 == -q ]] || print -r -- "shellguard: in effect: every widget that runs a line is checked by $bin"
  return 0
}

# Before a prompt: after start-up (the rest of ~/.zshrc has run) and after
# a line that may have changed the bindings, say if the guard is not in
# effect. Before a line runs: say when it was not checked (a key or
# widget that runs lines without going through the guard).
__shellguard_precmd() {
  typeset -g __shellguard_checked=0
  if (( ${+__shellguard_recheck} )); then
    unset __shellguard_recheck
    shellguard_status -q >&2
  fi
}
__shellguard_preexec() {
  if (( ! __shellguard_checked )); then
    if [[ -o zle ]]; then
      print -r -u2 -- "shellguard: this line was NOT checked: the key that ran it does not go through the guard (see shellguard_status)"
      typeset -g __shellguard_recheck=1
    elif (( ! ${+__shellguard_nozle} )); then
      # Without ZLE (unsetopt zle, as in Emacs' shell mode) no line is
      # checked: say it once.
      typeset -g __shellguard_nozle=1
      print -r -u2 -- "shellguard: NOT IN EFFECT: ZLE is off in this shell, so lines are not checked"
    fi
  fi
  typeset -g __shellguard_checked=0
}

if [[ -o interactive ]]; then
  zmodload zsh/zleparameter 2>/dev/null
  () {
    local w m l
    local -a words
    for w in $__shellguard_widgets; do
      functions[__shellguard_w_$w]="__shellguard_guard $w \"\$@\""
      # Keep the current definition (zsh's, or another plugin's), unless
      # it is already the guard (the snippet was loaded again).
      if [[ ${widgets[$w]-} != user:__shellguard_w_$w ]]; then
        zle -A $w __shellguard_orig_$w
        zle -N $w __shellguard_w_$w
      fi
    done
    # Keys bound to zsh's own widgets (.accept-line, ...), which cannot be
    # wrapped, are bound to the wrapped ones.
    for m in $keymaps; do
      [[ $m == .* ]] && continue
      for l in ${(f)"$(bindkey -M $m -L 2>/dev/null)"}; do
        words=(${(z)l})
        w=$words[-1]
        (( ${__shellguard_widgets[(Ie)${w#.}]} )) && [[ $w == .* ]] || continue
        bindkey -M $m ${(Q)words[-2]} ${w#.}
      done
    done
  }
  typeset -g __shellguard_recheck=1 __shellguard_checked=1
  (( ${precmd_functions[(Ie)__shellguard_precmd]} )) || precmd_functions+=(__shellguard_precmd)
  (( ${preexec_functions[(Ie)__shellguard_preexec]} )) || preexec_functions+=(__shellguard_preexec)
fi
