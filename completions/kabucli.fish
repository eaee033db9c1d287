function __kabucli_complete
    set -l found (env _KABUCLI_COMPLETE=complete_fish \
        _KABUCLI_COMPLETE_ARGS=(commandline -cp | string collect) kabucli 2>/dev/null)
    if set -q found[1]
        printf '%s\n' $found
    else
        __fish_complete_path (commandline -ct)
    end
end

complete --command kabucli --no-files --arguments '(__kabucli_complete)'
