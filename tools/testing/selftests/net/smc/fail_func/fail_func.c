// SPDX-License-Identifier: GPL-2.0
/*
 * fail_func: make one kernel function fail on demand, for tests.
 *
 * Debian's kernels have neither fault injection nor the error-injection
 * list, but they have kprobes. A kprobe at the entry of @func sends the
 * calls chosen by @skip and @times straight back to the caller with
 * @retval as the return value: the function's body never runs, so it
 * allocates nothing and changes nothing.
 *
 *   insmod fail_func.ko func=smc_buf_create retval=-12 times=1
 *   cat /sys/module/fail_func/parameters/failed
 *   rmmod fail_func
 *
 * Only for functions whose callers check what they return (an errno, a
 * NULL or ERR_PTR() pointer); x86-64 only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>

static char *func;
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "function to fail, in the kernel or a loaded module");

static long retval = -ENOMEM;
module_param(retval, long, 0444);
MODULE_PARM_DESC(retval, "what a failed call returns (default -ENOMEM, 0 for NULL)");

static unsigned int skip;
module_param(skip, uint, 0444);
MODULE_PARM_DESC(skip, "calls that run before the first one fails (default 0)");

static int times = 1;
module_param(times, int, 0444);
MODULE_PARM_DESC(times, "calls that fail after those, -1 for all (default 1)");

static atomic_t calls = ATOMIC_INIT(0);
static atomic_t failed = ATOMIC_INIT(0);

static int fail_func_count_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops fail_func_count_ops = {
	.get = fail_func_count_get,
};

module_param_cb(calls, &fail_func_count_ops, &calls, 0444);
MODULE_PARM_DESC(calls, "calls of func seen so far");
module_param_cb(failed, &fail_func_count_ops, &failed, 0444);
MODULE_PARM_DESC(failed, "calls of func that failed so far");

/*
 * A failed call resumes here instead of in the function's body. Its
 * return pops the caller's return address, still on the stack at the
 * function's entry, and the "=a" output tells the compiler that %rax
 * already holds the value returned, so it leaves that register alone.
 *
 * Resuming right at the caller's return address with the stack popped by
 * the handler would not do: a kprobe on an ftrace call site (Debian's
 * kernels put them there) returns through the ftrace trampoline, which
 * takes back %rip from pt_regs but not %rsp.
 */
static noinline notrace unsigned long fail_func_return(void)
{
	unsigned long ax;

	asm volatile("" : "=a" (ax));
	return ax;
}

/**
 * fail_func_pre() - kprobe pre-handler at the entry of @func
 * @kp: the probe
 * @regs: registers at the entry
 *
 * Counts the call and, when it is one to fail, sets the return value and
 * makes the probed instruction's caller resume in fail_func_return().
 *
 * Context: any in which @func runs; preemption disabled.
 * Return: 1 when the call fails (the kprobe must not run the probed
 * instruction), 0 to let it run.
 */
static int fail_func_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int n = atomic_inc_return(&calls);

	if (n <= skip || (times >= 0 && n - skip > (unsigned int)times))
		return 0;
	atomic_inc(&failed);
	regs_set_return_value(regs, retval);
	instruction_pointer_set(regs, (unsigned long)fail_func_return);
	return 1;
}

static struct kprobe fail_func_kp = {
	.pre_handler = fail_func_pre,
};

static int __init fail_func_init(void)
{
	int rc;

	if (!func || !*func) {
		pr_err("no function named: func=SYMBOL\n");
		return -EINVAL;
	}
	fail_func_kp.symbol_name = func;
	rc = register_kprobe(&fail_func_kp);
	if (rc) {
		pr_err("cannot probe %s: %d\n", func, rc);
		return rc;
	}
	pr_info("%s returns %ld after %u calls, %d times%s\n", func, retval,
		skip, times, kprobe_ftrace(&fail_func_kp) ? " (ftrace)" : "");
	return 0;
}

static void __exit fail_func_exit(void)
{
	unregister_kprobe(&fail_func_kp);
	pr_info("%s: %d calls, %d failed\n", func, atomic_read(&calls),
		atomic_read(&failed));
}

module_init(fail_func_init);
module_exit(fail_func_exit);
MODULE_DESCRIPTION("Make a kernel function fail, for tests");
MODULE_LICENSE("GPL");
