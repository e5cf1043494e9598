_d4cli_completion() {
    local IFS=$'\n'
    COMPREPLY=()
    mapfile -t COMPREPLY < <(env COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT" \
        COMP_WORDBREAKS="$COMP_WORDBREAKS" _D4CLI_COMPLETE=complete_bash "$1" 2>/dev/null)
    if [[ ${#COMPREPLY[@]} -eq 1 && -z ${COMPREPLY[0]} ]]; then
        COMPREPLY=()
    fi
    return 0
}

complete -o default -F _d4cli_completion d4cli
