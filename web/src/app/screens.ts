import { lazy } from 'react';

/**
 * Every screen but the board and the list comes in its own chunk when first shown: the board
 * is what most visits open, and its first cards should wait on no code it does not run.
 */
export const AcceptInvitation = lazy(() =>
  import('../features/auth/accept-invitation.tsx').then((m) => ({ default: m.AcceptInvitation })),
);
export const ResetPassword = lazy(() =>
  import('../features/auth/reset-password.tsx').then((m) => ({ default: m.ResetPassword })),
);
export const Setup = lazy(() => import('../features/auth/setup.tsx').then((m) => ({ default: m.Setup })));
export const SignInProblem = lazy(() =>
  import('../features/oidc/sign-in-problem.tsx').then((m) => ({ default: m.SignInProblem })),
);
export const Inbox = lazy(() =>
  import('../features/notifications/inbox-screen.tsx').then((m) => ({ default: m.Inbox })),
);
export const CalendarScreen = lazy(() =>
  import('../features/planning/calendar-screen.tsx').then((m) => ({ default: m.CalendarScreen })),
);
export const TimelineScreen = lazy(() =>
  import('../features/planning/timeline-screen.tsx').then((m) => ({ default: m.TimelineScreen })),
);
// The charts library comes only with the reports screen.
export const ReportsScreen = lazy(() =>
  import('../features/reports/reports-screen.tsx').then((m) => ({ default: m.ReportsScreen })),
);
export const ProjectSettings = lazy(() =>
  import('../features/project-settings/project-settings-screen.tsx').then((m) => ({ default: m.ProjectSettings })),
);
export const Projects = lazy(() =>
  import('../features/projects/projects-screen.tsx').then((m) => ({ default: m.Projects })),
);
export const Settings = lazy(() =>
  import('../features/settings/settings-screens.tsx').then((m) => ({ default: m.Settings })),
);
export const Standups = lazy(() =>
  import('../features/standups/standups-screen.tsx').then((m) => ({ default: m.Standups })),
);
export const TaskScreen = lazy(() =>
  import('../features/tasks/task-screen.tsx').then((m) => ({ default: m.TaskScreen })),
);
export const ViewScreen = lazy(() =>
  import('../features/views/views-screen.tsx').then((m) => ({ default: m.ViewScreen })),
);
