/* uml-poweroff: flush and power the User-Mode Linux guest off with reboot(2).
 * (The host's /sbin/poweroff is systemd's and does nothing useful in the guest.) */
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(void)
{
	sync();
	reboot(RB_POWER_OFF);
	perror("uml-poweroff: reboot(RB_POWER_OFF)");
	return 1;
}
