function __kabucli_complete
    set -l found (env _KABUCLI_COMPLETE=complete_fish \
        _KABUCLI_COMPLETE_ARGS=(commandline -cp | string collect) kabucli 2>/dev/null)
    if test "$found" = :files  # the file name after '--log=', 'cmd:', as bash's word breaks
        set -l word (commandline -ct | string unescape)  # as typed: 'my g, my\ g
        set -l head (string match -r -- '^.*[=:]' $word)
        for path in (__fish_complete_path (string replace -r -- '^.*[=:]' '' $word))
            printf '%s%s\n' "$head" $path
        end
    else if set -q found[1]
        printf '%s\n' $found
    end
end

complete --command kabucli --no-files --arguments '(__kabucli_complete)'
