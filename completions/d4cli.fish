function _d4cli_completion
    set -l words (commandline -opc)
    set -e words[1]
    set -l response (env _D4CLI_COMPLETE_ARGS=(string join \x1f -- $words) \
        _D4CLI_COMPLETE_INCOMPLETE=(commandline -ct) _D4CLI_COMPLETE=complete_fish \
        d4cli 2>/dev/null)
    for line in $response
        switch $line
            case \x01file \x01dir
                __fish_complete_path (commandline -ct)
                return
            case '*'
                printf '%s\n' $line
        end
    end
    if test (count $response) -eq 0
        __fish_complete_path (commandline -ct)
    end
end

complete --command d4cli --no-files --arguments "(_d4cli_completion)"
