# bash completion for zanj(1)                                       -*- shell-script -*-
# Completes commands, options and their values, archive files (*.zanj, and directories leading
# to them) for FILE arguments, and object paths for PATH arguments, read from the archive and
# offered one level at a time, like directories: all of it as `zanj --complete` answers.
# Installed as share/bash-completion/completions/zanj; needs the bash-completion package.

# The word as the shell will pass it to zanj: quotes and backslashes removed. Done by hand,
# not with eval, so that completing never runs anything that was typed.
_zanj_unquote()
{
    local word=$1 out="" c quote="" i
    for ((i = 0; i < ${#word}; i++)); do
        c=${word:i:1}
        if [[ $quote == "'" ]]; then
            if [[ $c == "'" ]]; then quote=""; else out+=$c; fi
        elif [[ $c == '\' ]]; then
            ((i++))
            out+=${word:i:1}
        elif [[ $c == "$quote" ]]; then
            quote=""
        elif [[ -z $quote && ($c == "'" || $c == '"') ]]; then
            quote=$c
        else
            out+=$c
        fi
    done
    printf '%s' "$out"
}

# What zanj offers for the word being completed (`zanj --complete`, src/cli/completion.hpp):
# this script holds no command, option or value names, so it never drifts from the program.
_zanj()
{
    local cur prev words cword split
    _init_completion -s -n : || return

    # The words before the cursor as zanj will read them (quotes removed, ~/ expanded), then the
    # word being completed. With -s, --opt=VALUE arrives split: the option, then the value.
    local -a args=()
    local i word
    for ((i = 1; i < cword; i++)); do
        word=$(_zanj_unquote "${words[i]}")
        [[ $word == \~/* ]] && word=$HOME/${word#\~/}
        args+=("$word")
    done
    $split && args+=("$prev")
    local typed
    typed=$(_zanj_unquote "$cur")

    local -a reply=()
    mapfile -t reply < <("${words[0]}" --complete "${args[@]}" "$typed" 2>/dev/null)
    ((${#reply[@]})) || return 0
    local directive=${reply[0]} candidate
    local -a found=()
    for candidate in "${reply[@]:1}"; do
        found+=("${candidate%%$'\t'*}") # the description, if any, is for zsh and fish
    done

    case $directive in
        words) COMPREPLY=("${found[@]}") ;;
        paths)
            # A node with children comes with a '/': offered without it and without a trailing
            # space when it is the only one, so that typing / goes on. Candidates are plain
            # strings: readline quotes them (-o filenames) as the word needs.
            compopt -o filenames
            COMPREPLY=("${found[@]%/}")
            if ((${#found[@]} == 1)) && [[ ${found[0]} == */ ]]; then
                compopt -o nospace
            fi
            __ltrim_colon_completions "$cur"
            ;;
        archives) _filedir zanj ;;
        files) _filedir ;;
        dirs) _filedir -d ;;
    esac
} &&
    complete -F _zanj zanj
