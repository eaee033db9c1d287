#compdef kabucli

_kabucli_completion() {
  local -a spaced unspaced
  local line value entry
  for line in "${(@f)$(env _KABUCLI_COMPLETE=complete_zsh \
      _KABUCLI_COMPLETE_ARGS="${words[1,CURRENT]}" kabucli 2>/dev/null)}"; do
    [[ -n $line ]] || continue
    if [[ $line == :files ]]; then
      compset -P '*[=:]'  # the file name after '--log=', 'cmd:', as bash's word breaks
      _files
      return
    fi
    value=${line%%$'\t'*}
    entry=${value//:/\\:}
    [[ $line == *$'\t'* ]] && entry+=":${line#*$'\t'}"
    if [[ $value == *[=:] ]]; then unspaced+=("$entry"); else spaced+=("$entry"); fi
  done
  local ret=1
  (( $#spaced )) && _describe -t values kabucli spaced && ret=0
  (( $#unspaced )) && _describe -t values kabucli unspaced -S '' && ret=0
  return ret
}

# Autoloaded from $fpath (as the file _kabucli), this runs at the first TAB: complete now.
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _kabucli_completion "$@"
else
  compdef _kabucli_completion kabucli
fi
