/** Team members messages of seed 002 sections 2.18 and 8. */
export const NO_MEMBERS_MESSAGE = "You haven't added any team members to the team yet.";
export const removedMessage = (name: string) => `${name} removed from team successfully`;
export const addedMessage = (names: string[]) => `${names.join(', ')} added to the team successfully`;
