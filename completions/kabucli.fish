function __kabucli_complete
    set -l found (env _KABUCLI_COMPLETE=complete_fish \
        _KABUCLI_COMPLETE_ARGS=(commandline -cp | string collect) kabucli 2>/dev/null)
    if test "$found" = :files
        __fish_complete_path (commandline -ct)
    else if set -q found[1]
        printf '%s\n' $found
    end
end

complete --command kabucli --no-files --arguments '(__kabucli_complete)'
