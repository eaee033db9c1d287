_kabucli_completion() {
    mapfile -t COMPREPLY < <(env _KABUCLI_COMPLETE=complete_bash \
        _KABUCLI_COMPLETE_ARGS="${COMP_LINE:0:COMP_POINT}" \
        COMP_WORDBREAKS="$COMP_WORDBREAKS" kabucli 2>/dev/null)
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == :files ]]; then
        COMPREPLY=()
        compopt -o default
    elif [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=:] ]]; then
        compopt -o nospace
    fi
    return 0
}

complete -F _kabucli_completion kabucli
