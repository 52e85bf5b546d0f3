# harness-hang.sh: never finish; the host must kill this boot at its timeout.
while :; do sleep 60; done
