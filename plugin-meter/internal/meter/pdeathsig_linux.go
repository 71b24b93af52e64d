package meter

import (
	"os/exec"
	"syscall"
)

// The child gets SIGTERM if the meter dies without stopping it (e.g. SIGKILL), as it would if the controller had
// started it directly and then gone away.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
