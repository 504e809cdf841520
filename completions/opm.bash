# bash completion for opm                                  -*- shell-script -*-
# Written by "opm completion bash"; regenerate it instead of editing it.

__opm_subcommands() {
    case "$1" in
        'opm') echo 'completion generate help init render serve validate version' ;;
        'opm completion') echo 'bash fish zsh' ;;
        'opm generate') echo 'dockerfile' ;;
    esac
}

__opm_flags() {
    case "$1" in
        'opm') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm completion') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm completion bash') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm completion fish') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm completion zsh') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm generate') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm generate dockerfile') echo '--base-image -i --builder-image -b --extra-labels -l --help -h --skip-tls-verify --use-http' ;;
        'opm init') echo '--default-channel -c --description -d --help -h --icon -i --output -o --skip-tls-verify --use-http' ;;
        'opm render') echo '--help -h --migrate --migrate-level --output -o --platform --skip-tls-verify --use-http' ;;
        'opm serve') echo '--cache-dir --cache-enforce-integrity --cache-only --debug --help -h --port -p --pprof-addr --termination-log -t --skip-tls-verify --use-http' ;;
        'opm validate') echo '--help -h --output -o --skip-tls-verify --use-http' ;;
        'opm version') echo '--help -h --skip-tls-verify --use-http' ;;
    esac
}

__opm_value_flags() {
    case "$1" in
        'opm generate dockerfile') echo '--base-image -i --builder-image -b --extra-labels -l' ;;
        'opm init') echo '--default-channel -c --description -d --icon -i --output -o' ;;
        'opm render') echo '--migrate-level --output -o --platform' ;;
        'opm serve') echo '--cache-dir --port -p --pprof-addr --termination-log -t' ;;
        'opm validate') echo '--output -o' ;;
    esac
}

__opm_complete() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path='opm' word i
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        if [[ "$word" == "--" ]]; then
            break
        elif [[ "$word" == -* ]]; then
            if [[ "$word" != *=* && " $(__opm_value_flags "$path") " == *" $word "* ]]; then
                ((i++))
            fi
        elif [[ " $(__opm_subcommands "$path") " == *" $word "* ]]; then
            path="$path $word"
        fi
    done
    if ((COMP_CWORD > 1)); then
        prev="${COMP_WORDS[COMP_CWORD - 1]}"
    fi
    COMPREPLY=()
    if [[ "$prev" == -* && " $(__opm_value_flags "$path") " == *" $prev "* ]]; then
        return # a flag value: file names
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(__opm_flags "$path")" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(__opm_subcommands "$path")" -- "$cur"))
    fi
}

complete -o default -F __opm_complete opm
