/** Messages of seed 000 section 8 ("Generic settings") and seed 002 section 8 (empty states). */
export const NO_RESOURCES_MESSAGE = 'No resources found';
export const updatedMessage = (name: string) => `${name} updated successfully`;
export const deletedMessage = (name: string) => `${name} deleted successfully`;
export const createdMessage = (name: string) => `${name} created successfully`;
