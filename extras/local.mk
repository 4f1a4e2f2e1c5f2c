# extras: lttctl's bash completion (extras/bash-completion/lttctl), named
# after the command so that bash-completion loads it on demand.
dist_bashcompletion_DATA = extras/bash-completion/lttctl
