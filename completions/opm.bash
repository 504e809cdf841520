# bash completion for opm                                  -*- shell-script -*-
# Written by "opm completion bash"; regenerate it instead of editing it.

__opm_subcommands() {
    case "$1" in
        'opm') echo 'alpha completion generate help index init migrate registry render serve validate version' ;;
        'opm alpha') echo 'bundle cache catalog convert-template diff filter list pin render-graph render-template' ;;
        'opm alpha bundle') echo 'build extract generate unpack' ;;
        'opm alpha cache') echo 'info prune' ;;
        'opm alpha catalog') echo 'build' ;;
        'opm alpha convert-template') echo 'basic substitutes' ;;
        'opm alpha list') echo 'bundles channels images packages' ;;
        'opm completion') echo 'bash fish powershell zsh' ;;
        'opm generate') echo 'dockerfile' ;;
        'opm index') echo 'add export prune prune-stranded rm' ;;
        'opm registry') echo 'add prune prune-stranded rm serve' ;;
    esac
}

__opm_flags() {
    case "$1" in
        'opm') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha bundle') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha bundle build') echo '--base-image --channels -c --default -e --directory -d --help -h --image-builder -b --output-dir -u --overwrite -o --package -p --tag -t --skip-tls-verify --use-http' ;;
        'opm alpha bundle extract') echo '--configmapname -c --datalimit -l --debug --gzip -z --help -h --kubeconfig -k --manifestsdir -m --namespace -n --skip-tls-verify --use-http' ;;
        'opm alpha bundle generate') echo '--base-image --channels -c --default -e --directory -d --help -h --output-dir -u --package -p --skip-tls-verify --use-http' ;;
        'opm alpha bundle unpack') echo '--debug -d --help -h --out -o --root-ca -c --skip-tls-verify --skip-validation -v --use-http' ;;
        'opm alpha bundle validate') echo '--help -h --image-builder -b --optional-validators -o --tag -t --skip-tls-verify --use-http' ;;
        'opm alpha cache') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha cache info') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha cache prune') echo '--all --help -h --older-than --skip-tls-verify --use-http' ;;
        'opm alpha catalog') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha catalog build') echo '--base-image -i --extra-labels -l --help -h --platform --tag -t --skip-tls-verify --use-http' ;;
        'opm alpha convert-template') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha convert-template basic') echo '--help -h --output -o --skip-tls-verify --use-http' ;;
        'opm alpha convert-template substitutes') echo '--help -h --output -o --skip-tls-verify --use-http' ;;
        'opm alpha diff') echo '--allow --check-upgrades --help -h --output -o --skip-tls-verify --use-http' ;;
        'opm alpha filter') echo '--config -c --help -h --keep-heads-only --output -o --platform --skip-tls-verify --use-http' ;;
        'opm alpha list') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha list bundles') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha list channels') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha list images') echo '--help -h --output -o --skip-tls-verify --use-http' ;;
        'opm alpha list packages') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm alpha pin') echo '--help -h --output -o --platform --skip-unresolved --skip-tls-verify --use-http' ;;
        'opm alpha render-graph') echo '--draw-v0-semantics --help -h --minimum-edge --package-name -p --skip-tls-verify --use-http' ;;
        'opm alpha render-template') echo '--help -h --migrate-level --output -o --skip-tls-verify --use-http' ;;
        'opm completion') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm completion bash') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm completion fish') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm completion powershell') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm completion zsh') echo '--help -h --no-descriptions --skip-tls-verify --use-http' ;;
        'opm generate') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm generate dockerfile') echo '--base-image -i --builder-image -b --extra-labels -l --help -h --skip-tls-verify --use-http' ;;
        'opm index') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm index add') echo '--binary-image -i --build-tool -u --bundles -b --container-tool -c --from-index -f --generate --help -h --mode --out-dockerfile -d --permissive --pull-tool -p --tag -t --skip-tls-verify --use-http' ;;
        'opm index export') echo '--container-tool -c --download-folder -f --help -h --index -i --package -p --skip-tls-verify --use-http' ;;
        'opm index prune') echo '--binary-image -i --container-tool -c --from-index -f --generate --help -h --out-dockerfile -d --packages -p --permissive --tag -t --skip-tls-verify --use-http' ;;
        'opm index prune-stranded') echo '--binary-image -i --container-tool -c --from-index -f --generate --help -h --out-dockerfile -d --tag -t --skip-tls-verify --use-http' ;;
        'opm index rm') echo '--binary-image -i --build-tool -u --container-tool -c --from-index -f --generate --help -h --operators -o --out-dockerfile -d --permissive --pull-tool -p --tag -t --skip-tls-verify --use-http' ;;
        'opm init') echo '--default-channel -c --description -d --help -h --icon -i --output -o --skip-tls-verify --use-http' ;;
        'opm migrate') echo '--help -h --migrate-level --output -o --skip-tls-verify --use-http' ;;
        'opm registry') echo '--help -h --skip-tls-verify --use-http' ;;
        'opm registry add') echo '--bundle-images -b --ca-file --container-tool -c --database -d --debug --help -h --mode --permissive --skip-tls-verify --use-http' ;;
        'opm registry prune') echo '--database -d --debug --help -h --packages -p --permissive --skip-tls-verify --use-http' ;;
        'opm registry prune-stranded') echo '--database -d --debug --help -h --skip-tls-verify --use-http' ;;
        'opm registry rm') echo '--database -d --debug --help -h --packages -o --permissive --skip-tls-verify --use-http' ;;
        'opm registry serve') echo '--database -d --debug --help -h --port -p --skip-migrate --termination-log -t --timeout-seconds --skip-tls-verify --use-http' ;;
        'opm render') echo '--alpha-image-ref-template --help -h --migrate --migrate-level --output -o --platform --skip-tls-verify --use-http' ;;
        'opm serve') echo '--cache-dir --cache-enforce-integrity --cache-only --debug --help -h --port -p --pprof-addr --pprof-capture-profiles --termination-log -t --skip-tls-verify --use-http' ;;
        'opm validate') echo '--help -h --output -o --skip-tls-verify --use-http' ;;
        'opm version') echo '--help -h --skip-tls-verify --use-http' ;;
    esac
}

__opm_value_flags() {
    case "$1" in
        'opm alpha bundle build') echo '--base-image --channels -c --default -e --directory -d --image-builder -b --output-dir -u --package -p --tag -t' ;;
        'opm alpha bundle extract') echo '--configmapname -c --datalimit -l --kubeconfig -k --manifestsdir -m --namespace -n' ;;
        'opm alpha bundle generate') echo '--base-image --channels -c --default -e --directory -d --output-dir -u --package -p' ;;
        'opm alpha bundle unpack') echo '--out -o --root-ca -c' ;;
        'opm alpha bundle validate') echo '--image-builder -b --optional-validators -o --tag -t' ;;
        'opm alpha cache prune') echo '--older-than' ;;
        'opm alpha catalog build') echo '--base-image -i --extra-labels -l --platform --tag -t' ;;
        'opm alpha convert-template basic') echo '--output -o' ;;
        'opm alpha convert-template substitutes') echo '--output -o' ;;
        'opm alpha diff') echo '--allow --output -o' ;;
        'opm alpha filter') echo '--config -c --output -o --platform' ;;
        'opm alpha list images') echo '--output -o' ;;
        'opm alpha pin') echo '--output -o --platform' ;;
        'opm alpha render-graph') echo '--minimum-edge --package-name -p' ;;
        'opm alpha render-template') echo '--migrate-level --output -o' ;;
        'opm generate dockerfile') echo '--base-image -i --builder-image -b --extra-labels -l' ;;
        'opm index add') echo '--binary-image -i --build-tool -u --bundles -b --container-tool -c --from-index -f --mode --out-dockerfile -d --pull-tool -p --tag -t' ;;
        'opm index export') echo '--container-tool -c --download-folder -f --index -i --package -p' ;;
        'opm index prune') echo '--binary-image -i --container-tool -c --from-index -f --out-dockerfile -d --packages -p --tag -t' ;;
        'opm index prune-stranded') echo '--binary-image -i --container-tool -c --from-index -f --out-dockerfile -d --tag -t' ;;
        'opm index rm') echo '--binary-image -i --build-tool -u --container-tool -c --from-index -f --operators -o --out-dockerfile -d --pull-tool -p --tag -t' ;;
        'opm init') echo '--default-channel -c --description -d --icon -i --output -o' ;;
        'opm migrate') echo '--migrate-level --output -o' ;;
        'opm registry add') echo '--bundle-images -b --ca-file --container-tool -c --database -d --mode' ;;
        'opm registry prune') echo '--database -d --packages -p' ;;
        'opm registry prune-stranded') echo '--database -d' ;;
        'opm registry rm') echo '--database -d --packages -o' ;;
        'opm registry serve') echo '--database -d --port -p --termination-log -t --timeout-seconds' ;;
        'opm render') echo '--alpha-image-ref-template --migrate-level --output -o --platform' ;;
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
