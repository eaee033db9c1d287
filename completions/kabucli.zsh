#compdef kabucli

_kabucli_completion() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" _KABUCLI_COMPLETE=complete_zsh kabucli)
}

compdef _kabucli_completion kabucli
